import { bearerRoute } from '../auth/bearer-route';
import { listMediaLogRoute } from './routes';
import { mediaLogListing } from './media-log-context';

/** GET /media/log: the media requests in the caller's scope, filtered, in send order, paginated. */
export const handler = bearerRoute(listMediaLogRoute, async ({ caller, query }) => ({
  statusCode: 200,
  body: await mediaLogListing().list(caller, query),
}));
