import createClient, { createQuerySerializer, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './api-types.js';
import { DEFAULT_RETRY_POLICY, retryingFetch, type RetryPolicy } from './retrying-fetch.js';
import { watchMediaLog, type MediaLogFilter, type MediaLogEntry, type WatchOptions, type LiveWatch } from './media-log-live.js';

/**
 * What a web frontend does with the API, through the typed client. Every path, parameter, body and
 * answer is checked against the types generated from the OpenAPI document (`npm run client`): a
 * call the API would refuse does not compile.
 */

/** A user as the API returns it. */
export type User = components['schemas']['User'];
/** The RFC 9457 problem of every error answer. */
export type Problem = components['schemas']['Problem'];
/** Query of GET /user: filters, sort and pagination. */
export type UserListQuery = NonNullable<operations['listUsers']['parameters']['query']>;
/** Query of GET /media/log: filters, sort and pagination. */
export type MediaLogQuery = NonNullable<operations['listMediaLog']['parameters']['query']>;
/** Body of an avatar upload: the image's URL and the crop. */
export type AvatarUpload = operations['uploadCurrentAvatar']['requestBody']['content']['application/json'];
/** The media type of an image file an upload form accepts. */
export type UploadContentType = operations['createCurrentAvatarUpload']['requestBody']['content']['application/json']['content-type'];
/** An upload form: where to post the file, with which fields, and the source to crop afterwards. */
export type UploadForm = operations['createCurrentAvatarUpload']['responses'][201]['content']['application/json'];
/** The changes of a profile update. */
export type ProfileChanges = operations['updateCurrentUser']['requestBody']['content']['application/json'];

const API = '/frontend/api/v1';

/** openapi-fetch's own query serializer: arrays as repeated keys, objects in the deepObject style. */
const deepObjectQuery = createQuerySerializer();
/** Objects in the form style, exploded: each member a parameter of its own. */
const formObjectQuery = createQuerySerializer({ object: { style: 'form', explode: true } });

/**
 * GET /user's query as the API reads it. Its `prefix` object is in the form style (the document
 * says so: `email` and `username` exclude each other, and each is a parameter of its own), which
 * openapi-fetch, reading no document at run time, cannot know.
 */
function userListQuery({ prefix, ...query }: UserListQuery): string {
  return [deepObjectQuery(query), prefix === undefined ? '' : formObjectQuery({ prefix })].filter((part) => part !== '').join('&');
}

/** Sends the session's bearer token with every call. */
function bearer(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

/**
 * A signed-in session: the token comes from the identity provider (locally, `npm run cli -- token`).
 * Each call answers openapi-fetch's `{ data, error, response }`: `data` on success, `error` (the
 * problem) otherwise, and `response` for headers such as ETag and WWW-Authenticate. Every unsafe
 * call sends an `Idempotency-Key` of its own and is retried with it by `retries`
 * (retrying-fetch.ts), so an upload whose answer was lost stores one avatar, not two.
 */
export function signIn(baseUrl: string, token: string, fetchImpl: typeof fetch = globalThis.fetch, retries: RetryPolicy = DEFAULT_RETRY_POLICY) {
  // openapi-fetch serializes arrays as repeated keys and objects as deepObject (`sort[field]=…`),
  // the query conventions of the API.
  const client = createClient<paths>({ baseUrl, fetch: retryingFetch(fetchImpl, retries) });
  client.use(bearer(token));
  const session = {
    /** GET /user/current: the caller's profile and its ETag. */
    currentUser: () => client.GET(`${API}/user/current`),
    /** GET /user: the users the caller manages, filtered, sorted and paged. */
    listUsers: (query: UserListQuery) => client.GET(`${API}/user`, { params: { query }, querySerializer: userListQuery }),
    /** PUT /user/current with If-Match: only if the profile is still at version `etag` (412 otherwise). */
    updateProfile: (changes: ProfileChanges, etag: string) =>
      client.PUT(`${API}/user/current`, { body: changes, params: { header: { 'If-Match': etag } } }),
    /** POST /user/current/avatar: crop the image at a URL into the caller's avatar. */
    uploadAvatar: (upload: AvatarUpload) => client.POST(`${API}/user/current/avatar`, { body: upload }),
    /** DELETE /user/current/avatar/{avatar-id}: remove one of the caller's avatars. */
    deleteAvatar: (avatarId: string) => client.DELETE(`${API}/user/current/avatar/{avatar-id}`, { params: { path: { 'avatar-id': avatarId } } }),
    /** POST /user/current/avatar/uploads: a form to post an image file of type `contentType` straight to storage. */
    uploadForm: (contentType: UploadContentType) => client.POST(`${API}/user/current/avatar/uploads`, { body: { 'content-type': contentType } }),
    /** GET /media/log: the media requests the caller may see. */
    mediaLog: (query: MediaLogQuery) => client.GET(`${API}/media/log`, { params: { query } }),
    /** POST /media/log/live: a one-time ticket to the live media log's WebSocket. */
    openLive: () => client.POST(`${API}/media/log/live`),
  };
  return {
    ...session,
    /**
     * Watch the entries that match `filter` (the filter of GET /media/log): `onEntry` hears each change
     * pushed over the live media log's WebSocket, `options.onPage` each page fetched again on a
     * reconnect or an overflow (media-log-live.ts).
     */
    watchMediaLog: (filter: MediaLogFilter, onEntry: (entry: MediaLogEntry, matches: boolean) => void, options?: WatchOptions): LiveWatch =>
      watchMediaLog(session, filter, onEntry, options),
  };
}

/** The API as one signed-in user sees it. */
export type FrontendSession = ReturnType<typeof signIn>;

/**
 * Posts `file` with an upload form, as a browser form would: every field first, the file last (S3
 * ignores fields after the file). Storage answers 204 when it stored the file.
 */
export function postFile(form: UploadForm, file: Blob, fetchImpl: typeof fetch = globalThis.fetch): Promise<Response> {
  const data = new FormData();
  for (const [name, value] of Object.entries(form.fields)) data.append(name, value);
  data.append('file', file);
  return fetchImpl(form.url, { method: 'POST', body: data });
}
