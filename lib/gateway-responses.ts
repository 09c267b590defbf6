import { PROBLEM_MEDIA_TYPE, PROBLEM_TYPE_BASE } from '../functions/shared/http/problem-response';

/**
 * The answers API Gateway gives by itself, before or instead of a function: the RFC 9457 problems of
 * its customised gateway responses. Pure data without CDK imports, so the stack renders them into
 * gateway responses and the local gateway answers with the very same status, headers and body.
 */

/** API Gateway response types this service customises (every type API Gateway documents). */
export const GATEWAY_RESPONSE_TYPES = [
  'UNAUTHORIZED',
  'ACCESS_DENIED',
  'MISSING_AUTHENTICATION_TOKEN',
  'RESOURCE_NOT_FOUND',
  'REQUEST_TOO_LARGE',
  'THROTTLED',
  'QUOTA_EXCEEDED',
  'BAD_REQUEST_BODY',
  'BAD_REQUEST_PARAMETERS',
  'UNSUPPORTED_MEDIA_TYPE',
  'EXPIRED_TOKEN',
  'INVALID_API_KEY',
  'INVALID_SIGNATURE',
  'WAF_FILTERED',
  'INTEGRATION_TIMEOUT',
  'INTEGRATION_FAILURE',
  'AUTHORIZER_FAILURE',
  'AUTHORIZER_CONFIGURATION_ERROR',
  'API_CONFIGURATION_ERROR',
  'DEFAULT_4XX',
  'DEFAULT_5XX',
] as const;

/** One of {@link GATEWAY_RESPONSE_TYPES}. */
export type GatewayResponseType = (typeof GATEWAY_RESPONSE_TYPES)[number];

/** Media type of every problem body. */
export const PROBLEM_CONTENT_TYPE = PROBLEM_MEDIA_TYPE;

/** The RFC 9457 problem of one gateway answer, plus the headers it carries. */
export interface GatewayProblem {
  /** `urn:frontend-api:problem:<code>`, as the functions' problems. */
  readonly type: string;
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** The problem body members, in the order they are rendered. */
export type GatewayProblemBody = Pick<GatewayProblem, 'type' | 'title' | 'status' | 'detail' | 'code'>;

const NO_HEADERS: Readonly<Record<string, string>> = {};

function problem(status: number, code: string, title: string, detail: string, headers = NO_HEADERS): GatewayProblem {
  return { type: `${PROBLEM_TYPE_BASE}${code}`, status, code, title, detail, headers };
}

// Types, codes and titles follow functions/shared/errors.ts and the problem middleware, so a client sees one vocabulary whether the
// gateway or a function answered.
const unauthorized = problem(401, 'unauthorized', 'Unauthorized', 'A valid bearer token is required.', {
  // RFC 6750: tells the client to refresh its token rather than give up.
  'WWW-Authenticate': 'Bearer error="invalid_token"',
});
const forbidden = problem(403, 'forbidden', 'Forbidden', 'This account may not use the API.');
const notFound = problem(404, 'not_found', 'Not found', 'No resource matches this method and path.');
const badRequest = problem(400, 'bad_request', 'Bad request', 'The request is malformed.');
const throttled = problem(429, 'throttled', 'Too many requests', 'The request rate limit is exceeded; retry shortly.', { 'Retry-After': '1' });
// The authorizer fails (rather than refusing a token) when it cannot read the users table: a
// dependency outage, which clients should retry, not a bug to report.
const unavailable = problem(503, 'service_unavailable', 'Service unavailable', 'A dependency is unavailable; retry shortly.', { 'Retry-After': '1' });
const internal = problem(500, 'internal_error', 'Internal error', 'The request could not be processed.');
const timeout = problem(504, 'gateway_timeout', 'Gateway timeout', 'The request took too long to process.');

/** The problem API Gateway answers for each response type. */
export const GATEWAY_PROBLEMS: Readonly<Record<GatewayResponseType, GatewayProblem>> = {
  UNAUTHORIZED: unauthorized,
  // A signature-based token this API never issues: the same answer as any unusable token.
  EXPIRED_TOKEN: unauthorized,
  // The authorizer denies suspended users; the other types cover access modes the API does not offer.
  ACCESS_DENIED: forbidden,
  INVALID_API_KEY: forbidden,
  INVALID_SIGNATURE: forbidden,
  WAF_FILTERED: forbidden,
  // API Gateway reports an unknown route as a missing token (403); the interface promises 404.
  MISSING_AUTHENTICATION_TOKEN: notFound,
  RESOURCE_NOT_FOUND: notFound,
  REQUEST_TOO_LARGE: problem(413, 'payload_too_large', 'Payload too large', 'The request body exceeds 10 MB.'),
  THROTTLED: throttled,
  QUOTA_EXCEEDED: throttled,
  BAD_REQUEST_BODY: badRequest,
  BAD_REQUEST_PARAMETERS: badRequest,
  UNSUPPORTED_MEDIA_TYPE: problem(415, 'unsupported_media_type', 'Unsupported media type', 'Request bodies must be application/json.'),
  INTEGRATION_TIMEOUT: timeout,
  INTEGRATION_FAILURE: problem(502, 'bad_gateway', 'Bad gateway', 'The request could not be processed.'),
  AUTHORIZER_FAILURE: unavailable,
  AUTHORIZER_CONFIGURATION_ERROR: internal,
  API_CONFIGURATION_ERROR: internal,
  // The defaults catch types AWS may add later; every documented type has its own entry above.
  DEFAULT_4XX: badRequest,
  DEFAULT_5XX: internal,
};

/** The JSON body of a gateway problem, members in a fixed order. */
export function gatewayProblemBody(type: GatewayResponseType): GatewayProblemBody {
  const { type: problemType, title, status, detail, code } = GATEWAY_PROBLEMS[type];
  return { type: problemType, title, status, detail, code };
}
