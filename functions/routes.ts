/**
 * The one route table: method, path, handler module and authorization of every function. The CDK
 * stack builds its API Gateway resources and functions from it, the local gateway routes requests
 * with it, and `invoke --list` prints it. Nothing else lists routes.
 */

/** Every route lives under this prefix, as the interface specifies. */
export const API_PREFIX = '/frontend/api/v1';

import type * as z from './shared/validation/zod';
import { ListUsersQuerySchema, UserListSchema } from './users/list-schemas';
import { ListMediaLogQuerySchema, MediaLogListSchema } from './media-log/schemas';
import { UpdateProfileSchema, UserPathSchema, UserSchema } from './users/schemas';
import { OpenApiDocumentSchema } from './openapi/document-schema';
import { AVATAR_CROP_DESCRIPTION } from './avatars/image/crop-spec';
import { AvatarPathSchema, AvatarUploadResultSchema, AvatarUploadSchema } from './avatars/schemas';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Data a function touches, and how: the stack grants exactly this and nothing more. */
export interface RouteGrants {
  readonly users?: 'read' | 'write';
  readonly mediaLog?: 'read' | 'write';
  readonly avatars?: 'read' | 'write';
}

/**
 * The interface of a route: what it accepts and answers. The HTTP layer validates with these
 * schemas and the OpenAPI document is generated from them, so the two cannot disagree.
 */
export interface RouteContract {
  readonly summary: string;
  /** Longer text for the API description (semantics, encodings, access rules). */
  readonly description: string;
  readonly tag: 'Users' | 'Avatars' | 'Media log' | 'API description';
  readonly pathParameters?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** Largest JSON body accepted, in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** Request headers the route reads besides Authorization. */
  readonly requestHeaders?: readonly ('If-Match')[];
  readonly success: {
    readonly status: 200 | 201 | 204;
    readonly description: string;
    readonly schema?: z.ZodMiniType;
    /** Response headers besides the security headers, e.g. ETag. */
    readonly headers?: readonly ('ETag')[];
  };
  /** Error statuses the route itself can answer (the gateway's own answers are added for all). */
  readonly errors: readonly number[];
}

/** One route of the API, backed by one Lambda function. */
export interface RouteDefinition {
  /** Function name: the CDK construct id and the NAME of `invoke NAME`. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path under {@link API_PREFIX}, with API Gateway `{param}` placeholders. */
  readonly path: string;
  /** Module (from the project root) whose named export `handler` serves the route. */
  readonly handler: string;
  /** `bearer`: the REQUEST authorizer guards it; `none`: public (the API description). */
  readonly auth: 'bearer' | 'none';
  readonly grants: RouteGrants;
  /** The function decodes images and ships sharp; it gets more memory and time. */
  readonly image?: boolean;
  readonly contract: RouteContract;
}

/** The authorizer, listed beside the routes for `invoke` and the stack. */
export const authorizerFunction = {
  name: 'authorizer',
  handler: 'functions/auth/authorizer.ts',
  grants: { users: 'read' },
} as const;

const MANAGED_USERS =
  "Root manages everyone, admin everyone but root users, a user itself and its sub users, a sub user itself. " +
  "A user outside the caller's scope answers 404, exactly like one that does not exist.";

const PROFILE_DESCRIPTION =
  'Only `first-name` and `last-name` may change; values are trimmed and must be 1-100 characters without control characters. ' +
  'Any other field (role, status, email, ...) is refused with 400. Send the ETag of a previous read as If-Match to refuse the update (412) if the profile changed since.';

const AVATAR_UPLOAD_DESCRIPTION = [
  'The image at `avatar` (an http or https address of at most 2048 characters) is fetched, cropped, stored and enabled: the new avatar becomes the only enabled one of the user, and its `url` answers a plain GET with the WebP image, which never changes (cacheable for a year).',
  'The fetch reaches public internet addresses only (an address that leads elsewhere, redirects included, is a 400 on `avatar`), follows at most 3 redirects and takes JPEG, PNG, WebP or GIF images of at most 10 MB (413 beyond) and 40 megapixels (422 beyond), by default.',
  '`crop.left`, `crop.top` (0-100000) and `crop.size` (1-100000) are required; `crop.rotate` (a multiple of 90 from -360 to 360) and `crop.flip` are optional.',
  '',
  AVATAR_CROP_DESCRIPTION,
  '',
  'Other errors: 422 for a file that is not a usable image; 502 or 504 when the image source fails or does not answer in time; 409 when other changes of the same user\'s avatars kept getting in the way (retry).',
].join('\n');

/** What both avatar uploads accept and answer. */
const AVATAR_UPLOAD_CONTRACT = {
  tag: 'Avatars',
  body: AvatarUploadSchema,
  maxBodyBytes: 16 * 1024,
  success: { status: 201, description: 'The new avatar, enabled.', schema: AvatarUploadResultSchema },
  errors: [400, 404, 409, 413, 415, 422, 502, 504],
} as const;

/** The route table with each entry's literal type, so handlers get their contract's exact types. */
const routeTable = [
  {
    name: 'listUsers',
    method: 'GET',
    path: '/user',
    handler: 'functions/users/list-users.ts',
    auth: 'bearer',
    grants: { users: 'read' },
    contract: {
      summary: 'List the users the caller manages',
      description:
        'Root sees every user, admin every user but root users, a user itself and its sub users, a sub user itself. ' +
        'Query objects use the deepObject style: `pagination[page]=2&pagination[limit]=50&sort[field]=email&sort[order]=desc`. ' +
        'Arrays repeat the key or separate values by commas: `role=user&role=sub` or `role=user,sub`. ' +
        'Sortable fields, each served by an index: id (default, asc), created (follows id), email, username. ' +
        '`email` and `username` filter by a case-insensitive prefix and list sorted by that field. ' +
        '`total` is exact. For deep pages follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters.',
      tag: 'Users',
      query: ListUsersQuerySchema,
      success: { status: 200, description: 'A page of user summaries.', schema: UserListSchema },
      errors: [400],
    },
  },
  {
    name: 'getCurrentUser',
    method: 'GET',
    path: '/user/current',
    handler: 'functions/users/get-current-user.ts',
    auth: 'bearer',
    grants: { users: 'read' },
    contract: {
      summary: "Read the caller's own profile",
      description: 'Extension of the interface: the full User of the caller, with an ETag for conditional updates.',
      tag: 'Users',
      success: { status: 200, description: 'The User.', schema: UserSchema, headers: ['ETag'] },
      errors: [400],
    },
  },
  {
    name: 'updateCurrentUser',
    method: 'PUT',
    path: '/user/current',
    handler: 'functions/users/update-current-user.ts',
    auth: 'bearer',
    grants: { users: 'write' },
    contract: {
      summary: "Update the caller's own profile",
      description: PROFILE_DESCRIPTION,
      tag: 'Users',
      body: UpdateProfileSchema,
      requestHeaders: ['If-Match'],
      success: { status: 200, description: 'The updated User.', schema: UserSchema, headers: ['ETag'] },
      errors: [400, 412, 415],
    },
  },
  {
    name: 'getUser',
    method: 'GET',
    path: '/user/{user-id}',
    handler: 'functions/users/get-user.ts',
    auth: 'bearer',
    grants: { users: 'read' },
    contract: {
      summary: 'Read a user the caller manages',
      description:
        `Extension of the interface. ${MANAGED_USERS}`,
      tag: 'Users',
      pathParameters: UserPathSchema,
      success: { status: 200, description: 'The User.', schema: UserSchema, headers: ['ETag'] },
      errors: [400, 404],
    },
  },
  {
    name: 'updateUser',
    method: 'PUT',
    path: '/user/{user-id}',
    handler: 'functions/users/update-user.ts',
    auth: 'bearer',
    grants: { users: 'write' },
    contract: {
      summary: 'Update the profile of a user the caller manages (a sub user, for a user)',
      description: `${PROFILE_DESCRIPTION} A user outside the caller's scope answers 404.`,
      tag: 'Users',
      pathParameters: UserPathSchema,
      body: UpdateProfileSchema,
      requestHeaders: ['If-Match'],
      success: { status: 200, description: 'The updated User.', schema: UserSchema, headers: ['ETag'] },
      errors: [400, 404, 412, 415],
    },
  },
  {
    name: 'getOpenApi',
    method: 'GET',
    path: '/openapi.json',
    handler: 'functions/openapi/get-openapi.ts',
    auth: 'none',
    grants: {},
    contract: {
      summary: 'The OpenAPI 3.1 document of this API',
      description:
        'Extension of the interface, public: this document, generated from the same zod schemas that validate requests. ' +
        'The interactive documentation of the local gateway (`npm start`) is at /frontend/api/v1/docs.',
      tag: 'API description',
      success: { status: 200, description: 'The OpenAPI document.', schema: OpenApiDocumentSchema },
      errors: [400],
    },
  },
  {
    name: 'listMediaLog',
    method: 'GET',
    path: '/media/log',
    handler: 'functions/media-log/list-media-log.ts',
    auth: 'bearer',
    grants: { mediaLog: 'read', users: 'read' },
    contract: {
      summary: 'List the media request log',
      description:
        'Root and admin see every entry, a user its own and its sub users\' entries, a sub user its own; a `user-id` outside the caller\'s scope matches nothing. ' +
        'Filters (all optional, combined with AND; values of one array with OR): `status`, `status-ffscan`, `status-mediainfo`, `status-scan-report` ' +
        '(pending, processing, success, warning, error, skipped), `user-id`, `url` (exact), `request` (an entry id), `send[from]` and `send[to]` ' +
        '(date-times, inclusive, echoed as `filter.created`). Arrays repeat the key or separate values by commas: `status=error&status=warning` or `status=error,warning`. ' +
        'Sortable field, served by every index: send (default order desc); `sort[order]` is asc or desc. ' +
        'Pagination: `pagination[page]` >= 1 (default 1), `pagination[limit]` 1-100 (default 10); `total` is exact. ' +
        'For long walks follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters. Invalid values are a 400 naming the parameter.',
      tag: 'Media log',
      query: ListMediaLogQuerySchema,
      success: { status: 200, description: 'A page of media log entries.', schema: MediaLogListSchema },
      errors: [400],
    },
  },
  {
    name: 'uploadCurrentAvatar',
    method: 'POST',
    path: '/user/current/avatar',
    handler: 'functions/avatars/upload-current-avatar.ts',
    auth: 'bearer',
    grants: { users: 'write', avatars: 'write' },
    image: true,
    contract: {
      ...AVATAR_UPLOAD_CONTRACT,
      summary: 'Upload an avatar for the caller',
      description: AVATAR_UPLOAD_DESCRIPTION,
    },
  },
  {
    name: 'uploadUserAvatar',
    method: 'POST',
    path: '/user/{user-id}/avatar',
    handler: 'functions/avatars/upload-user-avatar.ts',
    auth: 'bearer',
    grants: { users: 'write', avatars: 'write' },
    image: true,
    contract: {
      summary: 'Upload an avatar for a user the caller manages',
      description: `${MANAGED_USERS} Nothing is fetched for such a user.\n\n${AVATAR_UPLOAD_DESCRIPTION}`,
      ...AVATAR_UPLOAD_CONTRACT,
      pathParameters: UserPathSchema,
    },
  },
  {
    name: 'deleteCurrentAvatar',
    method: 'DELETE',
    path: '/user/current/avatar/{avatar-id}',
    handler: 'functions/avatars/delete-current-avatar.ts',
    auth: 'bearer',
    grants: { users: 'write', avatars: 'write' },
    contract: {
      summary: "Delete one of the caller's avatars",
      description:
        "`avatar-id` is an id from the caller's User (`avatars.items[].id`). The avatar's record and image are deleted; " +
        'if it was the enabled avatar, the newest remaining one is enabled (none when it was the last). ' +
        "A value that is not a UUID is a 400; an id that names no avatar of the caller (another user's included) is a 404.",
      tag: 'Avatars',
      pathParameters: AvatarPathSchema,
      success: { status: 204, description: 'Deleted; no body.' },
      errors: [400, 404, 409],
    },
  },
] as const satisfies readonly RouteDefinition[];

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = routeTable;

/** Names of the routes. */
export type RouteName = (typeof routeTable)[number]['name'];

/** The entry of route `N`, with its literal contract type. */
export type RouteEntry<N extends RouteName> = Extract<(typeof routeTable)[number], { name: N }>;

/** The route named `name`; an unknown name is a programming error. */
export function routeNamed<N extends RouteName>(name: N): RouteEntry<N> {
  const route = routeTable.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`No route named ${name}.`);
  return route as RouteEntry<N>;
}
