import { liveRegistry } from '../live-composition';
import { connectionRoute } from './websocket-route';
import { liveDisconnectRoute } from './websocket-routes';

/** `$disconnect`: the connection leaves the registry (API Gateway calls it however the connection ended, on a best-effort basis). */
export const handler = connectionRoute(liveDisconnectRoute, async (event) => {
  await liveRegistry().remove(event.requestContext.connectionId, Date.now());
});
