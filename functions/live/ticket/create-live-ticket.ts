import { bearerRoute } from '../../auth/bearer-route';
import { getDocumentClient } from '../../shared/aws/clients';
import { tableName } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { liveConnectionsTable } from '../../shared/tables/live-connections-table';
import { liveTicketConfig } from '../live-config';
import { LiveTickets } from './live-tickets';
import { createLiveTicketRoute } from './ticket-route';
import { TicketRepository } from './ticket-repository';

const tickets = /* @__PURE__ */ lazy(() => new LiveTickets(new TicketRepository(getDocumentClient(), tableName(liveConnectionsTable)), liveTicketConfig().websocketUrl));

/** POST /media/log/live: a one-time ticket to the live media log, bound to the caller and its token. */
export const handler = bearerRoute(
  createLiveTicketRoute,
  async ({ caller, tokenExpires }) => ({ statusCode: 201, body: await tickets().issue(caller, tokenExpires) }),
  { configuration: [liveTicketConfig] },
);
