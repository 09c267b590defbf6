import { PROBLEMS, problemHeaders, problemType, type ProblemCode } from './problem-catalog';

/**
 * The answers API Gateway gives by itself, before or instead of a function: each customised
 * gateway response type mapped to a problem of the catalog. Pure data: the stack renders it into
 * gateway responses (lib/api-gateway-responses.ts), the local gateway answers with the very same
 * status, headers and body, and the OpenAPI document lists it under every route.
 */

/**
 * The response types API Gateway documents, every one customised here. See "Gateway response
 * types for API Gateway" in the API Gateway developer guide.
 */
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

/**
 * The request head a regional REST API takes: "Length, in characters, of the URL for a regional
 * API" 10,240 and "Total combined size of all header values, including header names, values, any
 * line terminators, and white space" 10,240 bytes, neither adjustable
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-execution-service-limits-table.html).
 */
export const GATEWAY_HEAD_LIMITS = { maxUrlCharacters: 10_240, maxHeaderBytes: 10_240 } as const;

/**
 * Requests API Gateway refuses before any gateway response applies: a URL or headers over
 * {@link GATEWAY_HEAD_LIMITS}. AWS documents the limits, not the answer, and no response type
 * covers them, so they cannot be customised there. The local gateway answers them with the statuses
 * HTTP has for them (414, RFC 9110 section 15.5.15; 431, RFC 6585 section 5) in the shape of every
 * other gateway answer, and the OpenAPI document lists them so that clients expect them.
 */
export const GATEWAY_HEAD_REFUSALS = ['URI_TOO_LONG', 'HEADERS_TOO_LARGE'] as const;

/** One of {@link GATEWAY_HEAD_REFUSALS}. */
export type GatewayHeadRefusal = (typeof GATEWAY_HEAD_REFUSALS)[number];

/** Whatever API Gateway answers by itself: a gateway response type, or a refused request head. */
export type GatewayAnswerType = GatewayResponseType | GatewayHeadRefusal;

/** The problem of a gateway response: a catalog code, and a detail of its own where the catalog's does not fit. */
interface GatewayProblemEntry {
  readonly code: ProblemCode;
  readonly detail?: string;
}

/** The problem API Gateway answers for each response type and refused request head. */
const GATEWAY_ENTRIES: Readonly<Record<GatewayAnswerType, GatewayProblemEntry>> = {
  URI_TOO_LONG: { code: 'uri_too_long', detail: `The request URL is longer than ${GATEWAY_HEAD_LIMITS.maxUrlCharacters} characters.` },
  HEADERS_TOO_LARGE: { code: 'header_fields_too_large', detail: `The request headers exceed ${GATEWAY_HEAD_LIMITS.maxHeaderBytes} bytes in all.` },
  UNAUTHORIZED: { code: 'unauthorized' },
  // A signature-based token this API never issues: the same answer as any unusable token.
  EXPIRED_TOKEN: { code: 'unauthorized' },
  // The authorizer denies users who are not active; the other types cover access modes the API does not offer.
  ACCESS_DENIED: { code: 'forbidden' },
  INVALID_API_KEY: { code: 'forbidden' },
  INVALID_SIGNATURE: { code: 'forbidden' },
  WAF_FILTERED: { code: 'forbidden', detail: 'The request was refused by the firewall.' },
  // API Gateway reports an unknown route as a missing token (403); the interface promises 404.
  MISSING_AUTHENTICATION_TOKEN: { code: 'not_found', detail: 'No resource matches this method and path.' },
  RESOURCE_NOT_FOUND: { code: 'not_found', detail: 'No resource matches this method and path.' },
  REQUEST_TOO_LARGE: { code: 'payload_too_large', detail: 'The request body exceeds 10 MB.' },
  THROTTLED: { code: 'throttled' },
  QUOTA_EXCEEDED: { code: 'throttled' },
  BAD_REQUEST_BODY: { code: 'bad_request' },
  BAD_REQUEST_PARAMETERS: { code: 'bad_request' },
  UNSUPPORTED_MEDIA_TYPE: { code: 'unsupported_media_type' },
  INTEGRATION_TIMEOUT: { code: 'gateway_timeout' },
  INTEGRATION_FAILURE: { code: 'bad_gateway' },
  // The authorizer fails (rather than refusing a token) when it cannot read the users table or the
  // issuer's keys: a dependency outage, which clients should retry, not a bug to report.
  AUTHORIZER_FAILURE: { code: 'service_unavailable' },
  AUTHORIZER_CONFIGURATION_ERROR: { code: 'internal_error', detail: 'The request could not be processed.' },
  API_CONFIGURATION_ERROR: { code: 'internal_error', detail: 'The request could not be processed.' },
  // The defaults catch types AWS may add later; every documented type has its own entry above.
  DEFAULT_4XX: { code: 'bad_request' },
  DEFAULT_5XX: { code: 'internal_error', detail: 'The request could not be processed.' },
};

/** The body members of a gateway problem, in the order they are rendered. */
export interface GatewayProblemBody {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: ProblemCode;
}

/** A gateway answer: its status, the headers of its code, and its fixed body. */
export interface GatewayProblem {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: GatewayProblemBody;
}

/** The problem API Gateway answers for `type`, derived from the catalog. */
export function gatewayProblem(type: GatewayAnswerType): GatewayProblem {
  const { code, detail } = GATEWAY_ENTRIES[type];
  const entry = PROBLEMS[code];
  return {
    status: entry.status,
    headers: problemHeaders(code),
    body: { type: problemType(code), title: entry.title, status: entry.status, detail: detail ?? entry.detail, code },
  };
}
