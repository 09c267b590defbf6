import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from './avatar-config';
import { deleteCurrentAvatarRoute } from './routes';
import { avatarRemovalService } from './avatar-context';

/** DELETE /user/current/avatar/{avatar-id}: delete one of the caller's avatars. */
export const handler = bearerRoute(deleteCurrentAvatarRoute, async ({ caller, path }) => {
  await avatarRemovalService().remove(caller, path['avatar-id']);
  return { statusCode: 204 };
}, { configuration: [avatarConfig] });
