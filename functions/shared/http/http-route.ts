import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import * as z from '../validation/zod';
import { ValidationError } from '../errors';
import { parseInput } from '../validation/issues';
import { callerOf, tokenExpiryOf } from './caller';
import { cors } from './cors';
import { decodeQuery } from './query-decoding';
import { jsonBody, type EventWithJsonBody } from './json-body';
import { problemErrors } from './problem-errors';
import { requestLog } from './request-log';
import { invocationTelemetry, routeKey } from '../observability/invocation-telemetry';
import type { Caller, StoredCaller } from '../access/roles';
import { dataConfig } from '../config/data-config';
import type { ConfigSection } from '../config/define-config';
import { cursorConfig } from '../listing/cursor-config';
import { corsPolicy } from './cors-policy';
import { noStore } from './no-store';
import { securityHeaders } from './security-headers';
import type { HttpResult, RouteInput, RouteWork } from './route-work';
// The idempotency layer, or its absence in the bundle of a route that takes no key (package.json `imports`).
import { idempotent } from '#idempotency-layer';
import { API_PREFIX, type RouteContract, type RouteOperation } from './route-definition';

export type { HttpResult, RouteInput } from './route-work';

/** The Lambda signature of every route. */
export type RouteHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** Options of {@link httpRoute}. */
export interface HttpRouteOptions {
  /**
   * Who a bearer route's caller is now, from the authorizer's claims (required for bearer routes
   * and routes that take an `Idempotency-Key`): the authorizer's answer may be cached, the
   * caller's stored role and status are not.
   */
  readonly resolveCaller?: (claims: Caller) => Promise<StoredCaller>;
  /** Configuration sections the handler needs beyond those its definition implies, loaded at cold start. */
  readonly configuration?: readonly ConfigSection<unknown>[];
}

/**
 * Load, at cold start, every configuration section the route needs, so that a function deployed
 * without one of its variables fails to start (and says which) instead of failing or falling back
 * on a request: the CORS origins, the data names when it touches data, the cursor key when it pages.
 */
function loadConfiguration(route: RouteOperation, extra: readonly ConfigSection<unknown>[]): void {
  corsPolicy();
  // A bearer route reads its caller's stored profile, whatever else it touches.
  if (route.auth === 'bearer' || Object.keys(route.grants).length > 0) dataConfig();
  if (route.paginated === true) cursorConfig();
  for (const section of extra) section();
}

const emptyQuery = z.strictObject({});

/**
 * `handle`, behind the `Idempotency-Key` layer when the route takes a key. A deployed bundle
 * resolves `#idempotency-layer` knowing whether its route takes one (lib/function-bundling.ts): the
 * bundle of every other route gets a module without the layer, and so leaves Powertools Idempotency
 * out (DESIGN.md 9). Run from source (the local gateway, `invoke`, tests) it is always the layer.
 */
function withRetries(route: RouteOperation, handle: RouteWork): RouteWork {
  return route.idempotencyKey === true ? idempotent(route, handle) : handle;
}

/** A route without a body contract refuses a body rather than ignoring it. */
function assertNoBody(event: EventWithJsonBody): undefined {
  if (event.parsedBody !== undefined) throw new ValidationError([{ name: 'body', reason: 'This operation takes no request body.' }]);
  return undefined;
}

function toProxyResult(result: HttpResult): APIGatewayProxyResult {
  if (result.body === undefined) return { statusCode: result.statusCode, headers: { ...result.headers }, body: '' };
  return {
    statusCode: result.statusCode,
    headers: { 'content-type': 'application/json', ...result.headers },
    body: JSON.stringify(result.body),
  };
}

/**
 * Build the Lambda handler of `route`: the shared HTTP middleware (invocation telemetry, header
 * normalization, JSON body, problem errors, security headers, request log) around `handle`, with
 * path, query and body validated by the route's contract, and safe retries when the route takes an
 * `Idempotency-Key`.
 */
export function httpRoute<R extends RouteOperation>(
  route: R,
  handle: (input: RouteInput<R['contract']>) => Promise<HttpResult>,
  options: HttpRouteOptions = {},
): RouteHandler {
  const contract: RouteContract = route.contract;
  const { resolveCaller } = options;
  // Keys are the caller's own: a route that takes them needs its caller as much as a guarded one.
  if ((route.auth === 'bearer' || route.idempotencyKey === true) && resolveCaller === undefined) throw new Error(`Route ${route.name} is guarded or keyed but resolves no caller.`);
  loadConfiguration(route, options.configuration ?? []);
  const run = withRetries(route, handle as RouteWork);

  const base = async (event: EventWithJsonBody, context: Context): Promise<APIGatewayProxyResult> => {
    // The caller first: a suspended caller gets its 403 whatever else is wrong with the request.
    const caller = resolveCaller ? await resolveCaller(callerOf(event)) : (undefined as unknown as StoredCaller);
    const path = contract.pathParameters ? parseInput(contract.pathParameters, event.pathParameters ?? {}, 'path') : undefined;
    const query = parseInput(contract.query ?? emptyQuery, decodeQuery(event.multiValueQueryStringParameters, event.queryStringParameters), 'query');
    const body = contract.body ? parseInput(contract.body, event.parsedBody, 'body') : assertNoBody(event);
    const headers = event.headers as Record<string, string | undefined>;
    const tokenExpires = route.auth === 'bearer' ? tokenExpiryOf(event) : undefined;
    return toProxyResult(await run({ path, query, body, caller, headers, context, ...(tokenExpires === undefined ? {} : { tokenExpires }) }));
  };

  const keyOfRoute = routeKey(route.method, `${API_PREFIX}${route.path}`);
  const handler = middy<EventWithJsonBody, APIGatewayProxyResult>(base, { timeoutEarlyInMillis: 0 })
    // middy runs `before` in this order and `after`/`onError` in reverse: problemErrors turns a
    // failure into a response first, then caching, CORS and security headers are added, then the
    // request is logged, then the invocation's metrics are written and its log keys dropped.
    .use(invocationTelemetry<EventWithJsonBody, APIGatewayProxyResult>((event) => ({ correlationId: event.requestContext?.requestId, route: keyOfRoute })))
    .use(requestLog())
    .use(securityHeaders())
    .use(cors());
  if (route.auth === 'bearer') handler.use(noStore());
  return handler
    .use(problemErrors())
    .use(httpHeaderNormalizer())
    .use(jsonBody({ maxBytes: contract.maxBodyBytes })) as unknown as RouteHandler;
}
