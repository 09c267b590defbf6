import type { RouteDefinition } from '../shared/http/route-definition';
import { routeGrants } from '../shared/deployment/route-grants';
import { ProblemError } from '../shared/errors';
import { GATEWAY_HEAD_LIMITS, GATEWAY_HEAD_REFUSALS, gatewayProblem, type GatewayAnswerType } from '../shared/http/gateway-problems';
import { PROBLEMS, type ProblemCode } from '../shared/http/problem-catalog';
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
  409: 'The request conflicts with the current state; `idempotency_key_in_use`: the first request with its Idempotency-Key still runs, retry after `Retry-After` seconds.',
  412: 'The `If-Match` version is no longer current: read the resource again.',
  413: 'The request body, or a fetched image, is too large.',
  414: `The request URL is longer than the gateway accepts (${GATEWAY_HEAD_LIMITS.maxUrlCharacters} characters): shorten the query.`,
  415: 'A request body that is not `application/json`.',
  422: 'Well-formed input that cannot be used; `code` names the reason.',
  429: 'Too many requests: retry shortly.',
  431: `The request headers are larger than the gateway accepts (${GATEWAY_HEAD_LIMITS.maxHeaderBytes} bytes in all).`,
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

/** Codes a function answers with besides the 400 and 413 built below, on any route that lists their status. */
const FUNCTION_CODES: readonly ProblemCode[] = ['not_found', 'conflict', 'precondition_failed', 'unsupported_media_type', 'upload_forms_exhausted', 'service_unavailable'];

/** Codes only the routes that fetch and decode images answer with. */
const IMAGE_CODES: readonly ProblemCode[] = [
  'unsupported_image', 'invalid_image', 'too_many_pixels', 'crop_outside_image', 'upload_not_found', 'source_unresolvable', 'source_refused',
  'upstream_failed', 'too_many_redirects', 'upstream_timeout',
];

/** Codes of the routes that take an `Idempotency-Key` (DESIGN.md 5b). */
const IDEMPOTENCY_CODES: readonly ProblemCode[] = ['idempotency_key_in_use', 'idempotency_key_reused'];

function example(code: ProblemCode, path: string, detail?: string): [string, ProblemBody] {
  return [code.replaceAll('_', '-'), problemBody(new ProblemError(code, { detail }), path)];
}

function functionExamples(status: number, route: RouteDefinition, path: string): Record<string, ProblemBody> {
  const maxBytes = route.contract.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  switch (status) {
    case 400:
      return Object.fromEntries([
        ['validation-failed', unknownParameterProblem(path)],
        ...(route.contract.body ? [example('malformed_body', path)] : []),
      ]);
    case 413:
      return Object.fromEntries([example('payload_too_large', path, `The request body exceeds ${maxBytes} bytes.`)]);
    default:
      return Object.fromEntries(
        [...FUNCTION_CODES, ...(route.image === true ? IMAGE_CODES : []), ...(route.idempotencyKey === true ? IDEMPOTENCY_CODES : [])]
          .filter((code) => PROBLEMS[code].status === status)
          .map((code) => example(code, path)),
      );
  }
}

/** API Gateway's own answers, by status, on routes it guards with the authorizer or on every route. */
function gatewayTypes(route: RouteDefinition): GatewayAnswerType[] {
  const guarded: GatewayAnswerType[] = route.auth === 'bearer' ? ['UNAUTHORIZED', 'ACCESS_DENIED', 'MISSING_AUTHENTICATION_TOKEN'] : [];
  return [...guarded, ...GATEWAY_HEAD_REFUSALS, 'REQUEST_TOO_LARGE', 'THROTTLED', 'INTEGRATION_FAILURE', 'INTEGRATION_TIMEOUT'];
}

/**
 * The statuses the shared HTTP layer gives on every route, whatever its contract lists: 400 for an
 * unknown query parameter or a body the route does not take, 413 and 415 for a body too large or
 * not JSON; 503 on routes that reach a data store; 409 and 422 on routes that take an
 * `Idempotency-Key` (its request still running, or the key sent with another request).
 */
function httpLayerStatuses(route: RouteDefinition): number[] {
  const touchesData = Object.keys(routeGrants(route)).length > 0;
  return [400, 413, 415, ...(touchesData ? [503] : []), ...(route.idempotencyKey === true ? [409, 422] : [])];
}

/**
 * Every error answer of a route, by status: the route's own (its contract's `errors`), those of the
 * shared HTTP layer, and API Gateway's own: its customized gateway responses and the 414 / 431 of a
 * request head over its limits (shared/http/gateway-problems.ts).
 */
export function errorAnswers(route: RouteDefinition, path: string): ErrorAnswer[] {
  const fromFunction = new Set([...route.docs.errors, ...httpLayerStatuses(route)]);
  const fromGateway = new Map<number, GatewayAnswerType>();
  for (const type of gatewayTypes(route)) fromGateway.set(gatewayProblem(type).status, type);
  const statuses = [...new Set([...fromFunction, ...fromGateway.keys()])].sort((a, b) => a - b);
  return statuses.map((status) => {
    const gatewayType = fromGateway.get(status);
    const examples: Record<string, ProblemBody> = fromFunction.has(status) ? functionExamples(status, route, path) : {};
    if (gatewayType !== undefined) {
      const { body } = gatewayProblem(gatewayType);
      examples[`gateway-${body.code.replaceAll('_', '-')}`] = body;
    }
    // A 409 carries Retry-After only when it is idempotency_key_in_use (its meaning says so): the header is not the status's.
    const headers: ErrorAnswer['headers'] = status === 401 ? ['WWW-Authenticate'] : status === 503 ? ['Retry-After'] : [];
    return { status, description: MEANINGS[status] ?? 'An error; `code` names it.', examples, headers };
  });
}
