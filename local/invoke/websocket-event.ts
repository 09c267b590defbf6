import type { WebSocketEvent } from '../../functions/live/connections/websocket-event';
import { UsageError } from '../cli/cli-errors';
import { readSettings } from '../local-settings';
import { liveServerSettings } from '../live/live-settings';
import { connectEvent, disconnectEvent, localConnectionFacts, messageEvent } from '../live/websocket-events';
import { WebSocketRoutes } from '../live/websocket-routes';

/** What `--generate-event 'WEBSOCKET …'` was asked for. */
export interface WebSocketEventRequest {
  /** `WEBSOCKET <route key>[?QUERY]`: `$connect?ticket=…`, `subscribe`, `$disconnect`, `$default`. */
  readonly line: string;
  /** The message of a message route. */
  readonly body?: string;
  /** `Name: value` strings of the `$connect` request (`Origin: http://localhost:5173`). */
  readonly headers: readonly string[];
  /** The connection the event is of; a new id unless given. */
  readonly connectionId?: string;
}

/** Whether a `--generate-event` line asks for a WebSocket event. */
export function isWebSocketLine(line: string): boolean {
  return /^\s*WEBSOCKET\b/i.test(line);
}

/**
 * The event the local WebSocket server would hand the route's function (local/live/websocket-events.ts
 * builds both): `$connect` with the headers and query given, a message with its body, `$disconnect`
 * as a client's normal close.
 */
export function generateWebSocketEvent(request: WebSocketEventRequest): WebSocketEvent {
  const match = /^\s*WEBSOCKET\s+(\$?[\w-]+)(?:\?(\S*))?\s*$/i.exec(request.line);
  if (!match) throw new UsageError(`expected 'WEBSOCKET <route key>[?QUERY]', got '${request.line}'.`);
  const [, routeKey, rawQuery = ''] = match as unknown as [string, string, string | undefined];
  const routes = new WebSocketRoutes();
  if (!routes.routeKeys.includes(routeKey)) throw new UsageError(`the WebSocket API has no route ${routeKey} (its routes: ${routes.routeKeys.join(', ')}).`);
  const headers: [string, string][] = request.headers.map((header) => {
    const colon = header.indexOf(':');
    if (colon < 1) throw new UsageError(`a header is 'Name: value', got '${header}'.`);
    return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
  });
  const domainName = `127.0.0.1:${readSettings(liveServerSettings).port}`;
  const facts = localConnectionFacts(domainName, request.connectionId);
  if (routeKey === '$connect') {
    if (request.body !== undefined) throw new UsageError('a $connect event has no --body.');
    return connectEvent(facts, { headers: [['Host', domainName], ...headers], rawQuery });
  }
  if (headers.length > 0 || rawQuery !== '') throw new UsageError('only a $connect event has headers and a query.');
  if (routeKey === '$disconnect') return disconnectEvent(facts, 1000, 'Client closed the connection');
  if (request.body === undefined) throw new UsageError(`a ${routeKey} event needs the message: --body '{"action":…}'.`);
  return messageEvent(facts, routeKey, Buffer.from(request.body), false);
}
