import { bearerRoute } from '../auth/bearer-route';
import { updateCurrentUserRoute } from './routes';
import { userService } from './user-context';

/** PUT /user/current: update the caller's own first and last name. */
export const handler = bearerRoute(updateCurrentUserRoute, async ({ caller, body, headers }) => {
  const { user, etag } = await userService().update(caller, 'current', body, headers['if-match']);
  return { statusCode: 200, body: user, headers: { etag } };
});
