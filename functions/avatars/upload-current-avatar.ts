import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from './avatar-config';
import { uploadCurrentAvatarRoute } from './avatar-routes';
import { uploadAvatar } from './avatar-upload-routes';

/** POST /user/current/avatar: crop an avatar out of an image address and enable it for the caller. */
export const handler = bearerRoute(uploadCurrentAvatarRoute, async ({ caller, body }) => {
  const avatar = await uploadAvatar(caller, 'current', body);
  return { statusCode: 201, body: { avatar } };
}, { configuration: [avatarConfig] });
