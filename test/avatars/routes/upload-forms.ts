import { postFile, type UploadForm } from '../../../clients/web/src/index.js';
import { invoke, type InvokeResponse } from '../../harness/invoke';
import type { TestUser } from '../../harness/users';

/**
 * The two steps of an avatar from a file, as a frontend takes them: ask for an upload form, post
 * the file to storage with the form's fields (the frontend module's own `postFile`).
 */

/** POST /user/current/avatar/uploads as `user` (or `/user/{target}/avatar/uploads` for a target id). */
export function requestUploadForm(user: TestUser, contentType = 'image/png', target?: number): Promise<InvokeResponse> {
  const body = { 'content-type': contentType };
  return target === undefined
    ? invoke('createCurrentAvatarUpload', { token: user.token, body })
    : invoke('createUserAvatarUpload', { token: user.token, pathParameters: { 'user-id': target }, body });
}

/** Posts `bytes` with `form`; answers storage's status. */
export async function postToForm(form: UploadForm, bytes: Buffer, type = 'image/png'): Promise<number> {
  const response = await postFile(form, new Blob([bytes], { type }));
  await response.arrayBuffer();
  return response.status;
}

/** A form for `user` with the file already posted: its source is ready for the avatar upload. */
export async function uploadedSource(user: TestUser, bytes: Buffer, target?: number): Promise<string> {
  const { status, body } = await requestUploadForm(user, 'image/png', target);
  if (status !== 201) throw new Error(`The upload form was answered ${status}: ${JSON.stringify(body)}`);
  const stored = await postToForm(body as UploadForm, bytes);
  if (stored !== 204) throw new Error(`Storage answered the form POST with ${stored}.`);
  return (body as UploadForm).source;
}
