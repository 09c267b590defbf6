import { bearerRoute } from '../auth/bearer-route';
import { listUsersRoute } from './routes';
import { userListing } from './user-context';

/** GET /user: the users in the caller's scope, filtered, sorted and paginated. */
export const handler = bearerRoute(listUsersRoute, async ({ caller, query }) => ({
  statusCode: 200,
  body: await userListing().list(caller, query),
}));
