import { lazy } from '../../shared/lazy';
import { liveRegistry } from '../live-composition';
import { SubscribeMessageSchema } from '../model/live-messages';
import { LiveSubscriptions } from './live-subscriptions';
import { parseMessage } from './message-frames';
import { messageRoute } from './websocket-route';
import { liveSubscribeRoute } from './websocket-routes';

const subscriptions = /* @__PURE__ */ lazy(() => new LiveSubscriptions(liveRegistry()));

/** `subscribe`: `{"action":"subscribe","id","filter"}`, answered `subscribed` or `error`. */
export const handler = messageRoute(liveSubscribeRoute, async (event) => {
  const message = parseMessage(event, SubscribeMessageSchema);
  return subscriptions().subscribe(event.requestContext.connectionId, message.id, message.filter ?? {});
});
