import { lazy } from '../../shared/lazy';
import { liveRegistry } from '../live-composition';
import { UnsubscribeMessageSchema } from '../model/live-messages';
import { LiveSubscriptions } from './live-subscriptions';
import { parseMessage } from './message-frames';
import { messageRoute } from './websocket-route';
import { liveUnsubscribeRoute } from './websocket-routes';

const subscriptions = /* @__PURE__ */ lazy(() => new LiveSubscriptions(liveRegistry()));

/** `unsubscribe`: `{"action":"unsubscribe","id"}`, answered `unsubscribed` or `error`. */
export const handler = messageRoute(liveUnsubscribeRoute, async (event) => {
  const message = parseMessage(event, UnsubscribeMessageSchema);
  return subscriptions().unsubscribe(event.requestContext.connectionId, message.id);
});
