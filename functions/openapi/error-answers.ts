import { GATEWAY_PROBLEMS, gatewayProblemBody, type GatewayResponseType } from '../../lib/gateway-responses';
import type { RouteDefinition } from '../routes';
import {
  ConflictError,
  MalformedBodyError,
  NotFoundError,
  PayloadTooLargeError,
  PreconditionFailedError,
  ProblemError,
  ServiceUnavailableError,
  UnsupportedMediaTypeError,
  UpstreamError,
} from '../shared/errors';
import { problemBody, type ProblemBody } from '../shared/http/problem-response';
import { DEFAULT_MAX_BODY_BYTES } from '../shared/http/json-body';
import { parseInput } from '../shared/validation/issues';
import * as z from '../shared/validation/zod';


/** One error status of an operation: what it means, sample problems, and headers it carries. */
export interface ErrorAnswer {
  readonly status: number;
  readonly description: string;
  /** Sample problem bodies by example name: those a function gives and those API Gateway gives. */
  readonly examples: Readonly<Record<string, ProblemBody>>;
  readonly headers: readonly ('WWW-Authenticate' | 'Retry-After')[];
}

/** What each status means in this API (DESIGN.md section 5). */
const MEANINGS: Readonly<Record<number, string>> = {
  400: 'Invalid input: `errors` names each parameter or field and why (an unknown parameter or field included).',
  401: 'No bearer token, or one that is invalid or expired: refresh the token and retry.',
  403: 'The account may not use the API (a suspended user).',
  404: 'Not found, or outside the caller\'s scope: the two are indistinguishable on purpose.',
  409: 'The request conflicts with the current state.',
  412: 'The `If-Match` version is no longer current: read the resource again.',
  413: 'The request body, or a fetched image, is too large.',
  415: 'A request body that is not `application/json`.',
  422: 'Well-formed input that cannot be used; `code` names the reason.',
  429: 'Too many requests: retry shortly.',
  502: 'An upstream the request depends on failed.',
  503: 'A dependency is unavailable: retry after `Retry-After` seconds.',
  504: 'The request or an upstream took too long.',
};

/** The 400 every function gives for a query parameter it does not know, produced by the real validator. */
function unknownParameterProblem(path: string): ProblemBody {
  try {
    parseInput(z.strictObject({}), { 'unknown-parameter': 'x' }, 'query');
  } catch (error) {
    if (error instanceof ProblemError) return problemBody(error, path);
  }
  throw new Error('An unknown query parameter was accepted.');
}

function functionExamples(status: number, route: RouteDefinition, path: string): Record<string, ProblemBody> {
  const maxBytes = route.contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  switch (status) {
    case 400:
      return {
        'validation-failed': unknownParameterProblem(path),
        ...(route.contract.body ? { 'malformed-body': problemBody(new MalformedBodyError(), path) } : {}),
      };
    case 404:
      return { 'not-found': problemBody(new NotFoundError(), path) };
    case 409:
      return { conflict: problemBody(new ConflictError('The request conflicts with the current state.'), path) };
    case 412:
      return { 'precondition-failed': problemBody(new PreconditionFailedError(), path) };
    case 413:
      return { 'body-too-large': problemBody(new PayloadTooLargeError(`The request body exceeds ${maxBytes} bytes.`), path) };
    case 415:
      return { 'unsupported-media-type': problemBody(new UnsupportedMediaTypeError(), path) };
    case 502:
      return { 'upstream-failed': problemBody(new UpstreamError(502, 'upstream_failed', 'The upstream answered with an error.'), path) };
    case 503:
      return { 'service-unavailable': problemBody(new ServiceUnavailableError(), path) };
    case 504:
      return { 'upstream-timeout': problemBody(new UpstreamError(504, 'upstream_timeout', 'The upstream did not answer in time.'), path) };
    default:
      return {};
  }
}

/** API Gateway's own answers, by status, on routes it guards with the authorizer or on every route. */
function gatewayTypes(route: RouteDefinition): GatewayResponseType[] {
  const guarded: GatewayResponseType[] = route.auth === 'bearer' ? ['UNAUTHORIZED', 'ACCESS_DENIED', 'MISSING_AUTHENTICATION_TOKEN'] : [];
  return [...guarded, 'REQUEST_TOO_LARGE', 'THROTTLED', 'INTEGRATION_FAILURE', 'INTEGRATION_TIMEOUT'];
}

/**
 * The statuses the shared HTTP layer gives on every route, whatever its contract lists: 400 for an
 * unknown query parameter or a body the route does not take, 413 and 415 for a body too large or
 * not JSON; and 503 on routes that reach a data store.
 */
function httpLayerStatuses(route: RouteDefinition): number[] {
  const touchesData = Object.keys(route.grants).length > 0;
  return [400, 413, 415, ...(touchesData ? [503] : [])];
}

/**
 * Every error answer of a route, by status: the route's own (its contract's `errors`), those of the
 * shared HTTP layer, and API Gateway's customized gateway responses (lib/gateway-responses.ts).
 */
export function errorAnswers(route: RouteDefinition, path: string): ErrorAnswer[] {
  const fromFunction = new Set([...route.contract.errors, ...httpLayerStatuses(route)]);
  const fromGateway = new Map<number, GatewayResponseType>();
  for (const type of gatewayTypes(route)) fromGateway.set(GATEWAY_PROBLEMS[type].status, type);
  const statuses = [...new Set([...fromFunction, ...fromGateway.keys()])].sort((a, b) => a - b);
  return statuses.map((status) => {
    const gatewayType = fromGateway.get(status);
    const examples: Record<string, ProblemBody> = fromFunction.has(status) ? functionExamples(status, route, path) : {};
    if (gatewayType !== undefined) examples[`gateway-${GATEWAY_PROBLEMS[gatewayType].code.replaceAll('_', '-')}`] = gatewayProblemBody(gatewayType);
    const headers: ErrorAnswer['headers'] = status === 401 ? ['WWW-Authenticate'] : status === 503 ? ['Retry-After'] : [];
    return { status, description: MEANINGS[status] ?? 'An error; `code` names it.', examples, headers };
  });
}
