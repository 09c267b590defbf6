import { ValidationError } from '../../shared/errors';
import { LIVE_ACTIONS } from '../model/live-messages';
import { messageJson } from './message-frames';
import { messageRoute } from './websocket-route';
import { liveDefaultRoute } from './websocket-routes';

/**
 * `$default`: a message API Gateway could route nowhere else: not JSON (400 `malformed_body`), too
 * large (413), or JSON without a known `action` (400 naming `action`). Always an error message.
 */
export const handler = messageRoute(liveDefaultRoute, async (event) => {
  const json = messageJson(event);
  const action = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as { action?: unknown }).action : undefined;
  const reason = action === undefined ? 'Required: what the message asks for.' : 'Unknown action.';
  throw new ValidationError([{ name: 'action', reason: `${reason} Must be one of ${LIVE_ACTIONS.join(', ')}.` }]);
});
