import type { RouteDocs } from '../shared/http/route-definition';
import * as z from '../shared/validation/zod';
import { LIVE_LIMITS } from './model/live-limits';

/**
 * What the API description says of POST /media/log/live beyond what it accepts: only the OpenAPI
 * document reads it, so the ticket function carries neither this text nor the answer schema.
 */

/** The answer of POST /media/log/live. */
export const LiveTicketSchema = z.object({
  url: z.string().check(z.url({ protocol: /^wss?$/ })),
  expires: z.string().check(z.iso.datetime({ offset: true })),
});

/** The documentation of each live media log route, by route name. */
export const LIVE_ROUTE_DOCS = {
  createLiveTicket: {
    summary: 'Open the live media log',
    description:
      'Extension of the interface: a WebSocket URL that pushes each change of the entries the caller may see, without polling. ' +
      `The URL carries a one-time ticket (not the token: URLs land in access logs), valid for ${LIVE_LIMITS.ticketSeconds} seconds and bound to the caller; ` +
      'a second use, an expired ticket or a page origin outside the CORS origins is refused with 401 or 403. The connection closes when the token expires, ' +
      `when the caller is suspended, demoted or deleted (within ${LIVE_LIMITS.revocationSeconds} s), after 10 idle minutes and after 2 hours: connect again with a new ticket and refetch. ` +
      'Send `{"action":"subscribe","id":"<your id>","filter":{…}}` with the filter of GET /media/log (statuses, `user-id`, `url`, `request`, `send`), ' +
      `at most ${LIVE_LIMITS.subscriptionsPerConnection} per connection and ${LIVE_LIMITS.connectionsPerUser} connections per user; it answers \`{"type":"subscribed","id"}\`, ` +
      `and changes written ${LIVE_LIMITS.subscriptionEffectMs / 1000} s after that are pushed (fetch the page once that second has passed). ` +
      'Each new or changed entry whose old or new state matches arrives as `{"type":"entry","subscription","entry","matches"}` (`matches` false: it left the filter), ' +
      `the latest state at most once a second per entry, at most ${LIVE_LIMITS.entryMessagesPerSecond} a second per subscription, beyond which ` +
      '`{"type":"overflow","subscription","dropped"}` says to refetch the page. `{"action":"unsubscribe","id"}` ends a subscription. ' +
      'A message refused is answered `{"type":"error","id","status","code","detail"}` with the codes of the problem answers. With an `Idempotency-Key`, a retry gets the ticket of its first request.',
    tag: 'Media log',
    success: { status: 201, description: 'A WebSocket URL with a one-time ticket, and when the ticket expires.', schema: LiveTicketSchema },
    errors: [400],
  },
} as const satisfies Readonly<Record<string, RouteDocs>>;
