import { bearerRoute } from '../auth/bearer-route';
import { getUserRoute } from './routes';
import { userService } from './user-context';

/** GET /user/{user-id}: the profile of a user the caller manages. */
export const handler = bearerRoute(getUserRoute, async ({ caller, path }) => {
  const { user, etag } = await userService().get(caller, path['user-id']);
  return { statusCode: 200, body: user, headers: { etag } };
});
