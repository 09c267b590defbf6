import { bearerRoute } from '../auth/bearer-route';
import { getCurrentUserRoute } from './routes';
import { userService } from './user-context';

/** GET /user/current: the caller's own profile. */
export const handler = bearerRoute(getCurrentUserRoute, async ({ caller }) => {
  const { user, etag } = await userService().get(caller, 'current');
  return { statusCode: 200, body: user, headers: { etag } };
});
