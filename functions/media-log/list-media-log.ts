import { bearerRoute } from '../auth/bearer-route';
import { recordMediaLogReads } from '../shared/observability/metrics';
import { countingReads } from '../shared/observability/read-tally';
import { listMediaLogRoute } from './routes';
import { mediaLogListing } from './media-log-context';

/**
 * GET /media/log: the media requests in the caller's scope, filtered, in send order, paginated;
 * what the listing read and returned is recorded (items read per item returned).
 */
export const handler = bearerRoute(listMediaLogRoute, async ({ caller, query }) => {
  const { result, itemsRead } = await countingReads(() => mediaLogListing().list(caller, query));
  recordMediaLogReads(itemsRead, result.log.length);
  return { statusCode: 200, body: result };
});
