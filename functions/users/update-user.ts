import { bearerRoute } from '../auth/bearer-route';
import { updateUserRoute } from './routes';
import { userService } from './user-context';

/** PUT /user/{user-id}: update the names of a user the caller manages. */
export const handler = bearerRoute(updateUserRoute, async ({ caller, path, body, headers }) => {
  const { user, etag } = await userService().update(caller, path['user-id'], body, headers['if-match']);
  return { statusCode: 200, body: user, headers: { etag } };
});
