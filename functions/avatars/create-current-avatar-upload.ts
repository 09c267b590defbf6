import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from './avatar-config';
import { createCurrentAvatarUploadRoute } from './routes';
import { createUploadForm } from './uploads/upload-form-context';

/** POST /user/current/avatar/uploads: a presigned form for the caller to post an image file straight to storage. */
export const handler = bearerRoute(createCurrentAvatarUploadRoute, async ({ caller, body }) => {
  const form = await createUploadForm(caller, 'current', body);
  return { statusCode: 201, body: form };
}, { configuration: [avatarConfig] });
