import { defineConfig } from '../shared/config/define-config';

/** Variables of the live media log (the stack sets them from its WebSocket API; `npm start` from its local one). */
export const LIVE_ENV = {
  /** The WebSocket URL clients connect to: `wss://<api>.execute-api.<region>.amazonaws.com/live`. */
  websocketUrl: 'LIVE_WEBSOCKET_URL',
  /** The `@connections` endpoint the functions send, describe and close with: `https://<api>.execute-api.<region>.amazonaws.com/live`. */
  connectionsEndpoint: 'LIVE_CONNECTIONS_ENDPOINT',
} as const;

/** Whether `value` is an absolute URL of one of `protocols` (`wss:`), without query or fragment. */
function isUrlOf(value: string, protocols: readonly string[]): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return protocols.includes(url.protocol) && url.search === '' && url.hash === '';
}

/** Where a ticket sends its client: the WebSocket URL, read at cold start by the ticket route. */
export const liveTicketConfig = /* @__PURE__ */ defineConfig('live tickets', (env) => {
  const websocketUrl = env.required(LIVE_ENV.websocketUrl);
  if (websocketUrl !== '' && !isUrlOf(websocketUrl, ['wss:', 'ws:'])) env.problem(`${LIVE_ENV.websocketUrl} must be a ws:// or wss:// URL without a query; got "${websocketUrl}"`);
  return { websocketUrl };
});

/** The `@connections` endpoint, read at cold start by every function that sends to, describes or closes a connection. */
export const liveConnectionsConfig = /* @__PURE__ */ defineConfig('live connections', (env) => {
  const endpoint = env.required(LIVE_ENV.connectionsEndpoint);
  if (endpoint !== '' && !isUrlOf(endpoint, ['https:', 'http:'])) env.problem(`${LIVE_ENV.connectionsEndpoint} must be an http:// or https:// URL without a query; got "${endpoint}"`);
  return { endpoint };
});
