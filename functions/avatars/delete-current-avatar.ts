import { httpRoute } from '../shared/http/http-route';
import { deleteCurrentAvatarRoute } from './routes';
import { avatarRemovalService } from './avatar-context';

/** DELETE /user/current/avatar/{avatar-id}: delete one of the caller's avatars. */
export const handler = httpRoute(deleteCurrentAvatarRoute, async ({ caller, path }) => {
  await avatarRemovalService().remove(caller, path['avatar-id']);
  return { statusCode: 204 };
});
