import type { WebSocketEvent } from '../../functions/live/connections/websocket-event';
import { LIVE_ACCESS_LOG_FIELDS, type LiveAccessLogField } from '../../functions/live/model/live-access-log';

/** What the local server knew of one event when it had handled it. */
export interface HandledEvent {
  readonly event: WebSocketEvent;
  readonly status: number;
  readonly integrationLatencyMs?: number;
  readonly errorMessage?: string;
}

/** API Gateway writes `-` for a variable without a value. */
const NO_VALUE = '-';

/** The access log line of a handled event, members in the order of the stack's format (never the query: it holds the ticket). */
export function liveAccessLogLine({ event, status, integrationLatencyMs, errorMessage }: HandledEvent): Record<LiveAccessLogField, string> {
  const context = event.requestContext;
  const values: Record<(typeof LIVE_ACCESS_LOG_FIELDS)[LiveAccessLogField], string> = {
    'context.requestId': context.requestId,
    'context.extendedRequestId': context.extendedRequestId,
    'context.requestTime': context.requestTime,
    'context.eventType': context.eventType,
    'context.routeKey': context.routeKey,
    'context.connectionId': context.connectionId,
    'context.status': String(status),
    'context.integrationLatency': integrationLatencyMs === undefined ? NO_VALUE : String(Math.round(integrationLatencyMs)),
    'context.identity.sourceIp': context.identity.sourceIp,
    'context.error.message': errorMessage ?? NO_VALUE,
  };
  return Object.fromEntries(Object.entries(LIVE_ACCESS_LOG_FIELDS).map(([name, variable]) => [name, values[variable]])) as Record<LiveAccessLogField, string>;
}
