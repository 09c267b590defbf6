import { documentRoutes } from '../shared/http/route-definition';
import { LIVE_ROUTE_DOCS } from './route-docs';
import { createLiveTicketRoute } from './ticket/ticket-route';

/** The live media log's HTTP route, with its documentation (its WebSocket routes: connections/websocket-routes.ts). */
export const liveRoutes = documentRoutes([createLiveTicketRoute], LIVE_ROUTE_DOCS);
