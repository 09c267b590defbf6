import { httpRoute } from '../shared/http/http-route';
import { listUsersRoute } from './routes';
import { userListing } from './user-context';

/** GET /user: the users in the caller's scope, filtered, sorted and paginated. */
export const handler = httpRoute(listUsersRoute, async ({ caller, query }) => ({
  statusCode: 200,
  body: await userListing().list(caller, query),
}));
