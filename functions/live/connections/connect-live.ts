import { corsPolicy } from '../../shared/http/cors-policy';
import { lazy } from '../../shared/lazy';
import { liveConnectionsConfig } from '../live-config';
import { liveConnectionsApi, liveIdentities, liveRegistry, liveScopeReader, liveTicketStore } from '../live-composition';
import { TICKET_PARAMETER } from '../ticket/tickets';
import { LiveConnections } from './live-connections';
import { eventHeader } from './websocket-event';
import { connectionRoute } from './websocket-route';
import { liveConnectRoute } from './websocket-routes';

const connections = /* @__PURE__ */ lazy(
  () => new LiveConnections({ tickets: liveTicketStore(), registry: liveRegistry(), identities: liveIdentities(), scopes: liveScopeReader(), connections: liveConnectionsApi, cors: corsPolicy }),
);

/** `$connect`: the ticket from the URL's query, the page's origin from its header. */
export const handler = connectionRoute(
  liveConnectRoute,
  async (event) => {
    const { connectionId, connectedAt } = event.requestContext;
    await connections().open({ connectionId, connectedAt, ticket: event.queryStringParameters?.[TICKET_PARAMETER], origin: eventHeader(event, 'Origin') });
  },
  [corsPolicy, liveConnectionsConfig],
);
