import { bearerRoute } from '../auth/bearer-route';
import { checkManagedTarget } from '../shared/access/managed-target';
import { avatarConfig } from './avatar-config';
import { issueUploadForm } from './upload-form-issuing';
import { createUserAvatarUploadRoute } from './upload-form-routes';

/** POST /user/{user-id}/avatar/uploads: a presigned form to post an image file for a user the caller manages (404 otherwise). */
export const handler = bearerRoute(createUserAvatarUploadRoute, async ({ caller, path, body }) => {
  await checkManagedTarget(caller, path);
  return { statusCode: 201, body: await issueUploadForm(path['user-id'], body['content-type']) };
}, { configuration: [avatarConfig] });
