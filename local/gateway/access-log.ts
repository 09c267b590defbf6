import type { GatewayAnswerType } from '../../functions/shared/http/gateway-problems';
import { ACCESS_LOG_FIELDS, NO_VALUE, type AccessLogField, type AccessLogLine } from '../../functions/shared/observability/access-log-fields';
import { LOCAL_STAGE } from './proxy-event';

/**
 * The local gateway's access log: one JSON line per request, every answer included (its own 401,
 * 403, 404, 413, 5xx and 504 too), with exactly the members of the stage's access log in AWS
 * (functions/shared/observability/access-log-fields.ts), each valued as API Gateway values its
 * `$context` variable: a string, `-` when the request gave it no value.
 */

/** What dispatching a request learnt, beyond the answer itself. */
export interface GatewayFacts {
  /** The resource path of the matched route; none for an unknown route. */
  readonly resourcePath?: string;
  /** `userId` of the authorizer's context, when it allowed the request. */
  readonly userId?: string;
  /** The authorizer's error: `Unauthorized` for a refused token, the failure's message when it failed. */
  readonly authorizerError?: string;
  /** The gateway response type (or refused request head), when the gateway answered by itself. */
  readonly errorType?: GatewayAnswerType;
  /** How long the route's function took, when one ran. */
  readonly integrationLatencyMs?: number;
}

/** One served request, as the HTTP server saw it. */
export interface ServedRequest {
  readonly requestId: string;
  readonly receivedAt: Date;
  readonly method: string;
  readonly path: string;
  readonly sourceIp: string;
  readonly status: number;
  readonly responseLength: number;
  readonly latencyMs: number;
  readonly facts: GatewayFacts;
}

/**
 * `$context.error.message` of the gateway responses the local gateway gives: API Gateway's default
 * message of each type, whatever body the stack customised (that changes the answer, not the log).
 */
const ERROR_MESSAGES: Partial<Readonly<Record<GatewayAnswerType, string>>> = {
  UNAUTHORIZED: 'Unauthorized',
  ACCESS_DENIED: 'User is not authorized to access this resource with an explicit deny',
  MISSING_AUTHENTICATION_TOKEN: 'Missing Authentication Token',
  REQUEST_TOO_LARGE: 'Request Too Long',
  INTEGRATION_TIMEOUT: 'Endpoint request timed out',
  INTEGRATION_FAILURE: 'Internal server error',
  DEFAULT_5XX: 'Internal server error',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** `$context.requestTime`: the CLF time, `dd/MMM/yyyy:HH:mm:ss +0000`, in UTC. */
export function clfTime(date: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  const day = `${two(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}`;
  return `${day}:${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())} +0000`;
}

function text(value: string | number | undefined): string {
  return value === undefined || value === '' ? NO_VALUE : String(value);
}

/** The value of each `$context` variable for a served request. */
function contextValues(served: ServedRequest): Readonly<Record<(typeof ACCESS_LOG_FIELDS)[AccessLogField], string>> {
  const { facts } = served;
  return {
    'context.requestId': served.requestId,
    'context.extendedRequestId': served.requestId,
    'context.requestTime': clfTime(served.receivedAt),
    'context.httpMethod': served.method,
    'context.path': `/${LOCAL_STAGE}${served.path}`,
    'context.resourcePath': text(facts.resourcePath),
    'context.status': String(served.status),
    'context.responseLatency': String(Math.round(served.latencyMs)),
    'context.integrationLatency': text(facts.integrationLatencyMs === undefined ? undefined : Math.round(facts.integrationLatencyMs)),
    'context.responseLength': String(served.responseLength),
    'context.identity.sourceIp': served.sourceIp,
    'context.authorizer.userId': text(facts.userId),
    'context.authorizer.error': text(facts.authorizerError),
    'context.error.responseType': text(facts.errorType),
    'context.error.message': text(facts.errorType === undefined ? undefined : ERROR_MESSAGES[facts.errorType]),
    // No firewall and no X-Ray locally.
    'context.wafResponseCode': NO_VALUE,
    'context.xrayTraceId': NO_VALUE,
  };
}

/** The access log line of a served request, members in the order of the stack's format. */
export function accessLogLine(served: ServedRequest): AccessLogLine {
  const values = contextValues(served);
  return Object.fromEntries(Object.entries(ACCESS_LOG_FIELDS).map(([name, variable]) => [name, values[variable]])) as AccessLogLine;
}

/** Write the access log line of a served request to `stream`. */
export function writeAccessLog(stream: NodeJS.WritableStream, served: ServedRequest): void {
  stream.write(`${JSON.stringify(accessLogLine(served))}\n`);
}
