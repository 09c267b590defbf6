import { httpRoute } from '../shared/http/http-route';
import { userListing } from './user-context';

/** GET /user: the users in the caller's scope, filtered, sorted and paginated. */
export const handler = httpRoute('listUsers', async ({ caller, query }) => ({
  statusCode: 200,
  body: await userListing().list(caller, query),
}));
