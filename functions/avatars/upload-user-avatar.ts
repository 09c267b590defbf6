import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from './avatar-config';
import { uploadUserAvatarRoute } from './avatar-routes';
import { uploadAvatar } from './avatar-upload-routes';

/** POST /user/{user-id}/avatar: crop an avatar out of an image address and enable it for a user the caller manages. */
export const handler = bearerRoute(uploadUserAvatarRoute, async ({ caller, path, body }) => {
  const avatar = await uploadAvatar(caller, path['user-id'], body);
  return { statusCode: 201, body: { avatar } };
}, { configuration: [avatarConfig] });
