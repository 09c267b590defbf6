import { bearerRoute } from '../../auth/bearer-route';
import { getDocumentClient } from '../../shared/aws/clients';
import { lazy } from '../../shared/lazy';
import { recordMediaLogReads } from '../../shared/observability/metrics';
import { countingReads, itemsReadOf } from '../../shared/observability/read-meter';
import { createMediaLogListing } from './media-log-listing';
import { listMediaLogRoute } from './list-route';

// Built on the first request and kept while the instance is warm: the listing and what it reads, no writer.
const listing = /* @__PURE__ */ lazy(() => createMediaLogListing(getDocumentClient()));

/**
 * GET /media/log: the media requests in the caller's scope, filtered, in send order, paginated;
 * what the listing read and returned is recorded (items read per item returned).
 */
export const handler = bearerRoute(listMediaLogRoute, async ({ caller, query }) => {
  const { result, reads } = await countingReads(() => listing().list(caller, query));
  recordMediaLogReads(itemsReadOf(reads), result.log.length);
  return { statusCode: 200, body: result };
});
