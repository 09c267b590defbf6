import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from './avatar-config';
import { createUserAvatarUploadRoute } from './routes';
import { createUploadForm } from './uploads/upload-form-context';

/** POST /user/{user-id}/avatar/uploads: a presigned form to post an image file for a user the caller manages. */
export const handler = bearerRoute(createUserAvatarUploadRoute, async ({ caller, path, body }) => {
  const form = await createUploadForm(caller, path['user-id'], body);
  return { statusCode: 201, body: form };
}, { configuration: [avatarConfig] });
