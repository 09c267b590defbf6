/**
 * The access log line of the live media log's WebSocket stage, one JSON object per connection,
 * message and disconnection, as data: each member's name and the `$context` variable it holds
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/websocket-api-logging.html). The
 * stack renders it into the stage's format; the local WebSocket server writes the same members.
 * No member holds the query string: the connection URL carries the one-time ticket.
 */
export const LIVE_ACCESS_LOG_FIELDS = {
  requestId: 'context.requestId',
  extendedRequestId: 'context.extendedRequestId',
  time: 'context.requestTime',
  eventType: 'context.eventType',
  routeKey: 'context.routeKey',
  connectionId: 'context.connectionId',
  status: 'context.status',
  integrationLatencyMs: 'context.integrationLatency',
  sourceIp: 'context.identity.sourceIp',
  errorMessage: 'context.error.message',
} as const;

/** A member of the live access log line. */
export type LiveAccessLogField = keyof typeof LIVE_ACCESS_LOG_FIELDS;
