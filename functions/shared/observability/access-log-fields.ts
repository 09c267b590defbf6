/**
 * The access log line of the API, one JSON object per request, as data: each member's name and the
 * API Gateway `$context` variable it holds
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-variables-for-access-logging.html).
 * The stack renders it into the stage's access log format (lib/constructs/api.ts); the local
 * gateway writes the same members for every request it serves (local/gateway/access-log.ts).
 *
 * API Gateway writes every value as the JSON string the format puts it in, and `-` for a variable
 * that has no value in a request (no integration ran, no authorizer answered). Client-supplied free
 * text (user agent, query string) is left out: API Gateway does not escape it, so a quote in it
 * would break the line. The path is in: clients send it percent-encoded (RFC 3986 allows no quote
 * or backslash in a path), and a 404 has no resource path to tell what was asked for.
 */
export const ACCESS_LOG_FIELDS = {
  // AWS's advice: log both ids. Clients may set the first (a UUID in `X-Amzn-RequestId`); API
  // Gateway returns it in that response header, and the second in `x-amz-apigw-id`
  // (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-access-logging.html).
  requestId: 'context.requestId',
  extendedRequestId: 'context.extendedRequestId',
  time: 'context.requestTime',
  method: 'context.httpMethod',
  path: 'context.path',
  resource: 'context.resourcePath',
  status: 'context.status',
  latencyMs: 'context.responseLatency',
  integrationLatencyMs: 'context.integrationLatency',
  responseLength: 'context.responseLength',
  sourceIp: 'context.identity.sourceIp',
  userId: 'context.authorizer.userId',
  authorizerError: 'context.authorizer.error',
  // The gateway response type when API Gateway answered by itself (UNAUTHORIZED, THROTTLED, …).
  errorType: 'context.error.responseType',
  errorMessage: 'context.error.message',
  // WAF_BLOCK for a request the firewall answered (the per-client limits), WAF_ALLOW otherwise.
  wafResponseCode: 'context.wafResponseCode',
  xrayTraceId: 'context.xrayTraceId',
} as const;

/** A member of the access log line. */
export type AccessLogField = keyof typeof ACCESS_LOG_FIELDS;

/** One access log line: every member, each a string as API Gateway writes it. */
export type AccessLogLine = Readonly<Record<AccessLogField, string>>;

/** What API Gateway writes for a variable without a value. */
export const NO_VALUE = '-';
