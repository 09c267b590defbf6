import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from './avatar-config';
import { issueUploadForm } from './upload-form-issuing';
import { createCurrentAvatarUploadRoute } from './upload-form-routes';

/** POST /user/current/avatar/uploads: a presigned form for the caller to post an image file straight to storage. */
export const handler = bearerRoute(createCurrentAvatarUploadRoute, async ({ caller, body }) => {
  return { statusCode: 201, body: await issueUploadForm(caller.userId, body['content-type']) };
}, { configuration: [avatarConfig] });
