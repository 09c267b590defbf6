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
import { API_PREFIX, type RouteContract, type RouteOperation } from './route-definition';

type Parsed<S> = S extends z.ZodMiniType ? z.output<S> : undefined;

/** What a route handler returns; the HTTP layer serializes `body` as JSON. */
export interface HttpResult {
  readonly statusCode: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The Lambda signature of every route. */
export type RouteHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** What a route's domain code receives: validated input and the caller. */
export interface RouteInput<C extends RouteContract> {
  readonly path: Parsed<C['pathParameters']>;
  readonly query: Parsed<C['query']>;
  readonly body: Parsed<C['body']>;
  /** The authenticated caller, as stored now; routes without auth must not read it. */
  readonly caller: StoredCaller;
  /** Request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The invocation's Lambda context: how long the function has left (an unfinished keyed request holds its key that long). */
  readonly context: Context;
  /** The `exp` (epoch seconds) of the caller's token, as the authorizer passed it on; undefined without one. */
  readonly tokenExpires?: number;
}

/** Options of {@link httpRoute}. */
export interface HttpRouteOptions {
  /**
   * Who a bearer route's caller is now, from the authorizer's claims (required for bearer routes):
   * the authorizer's answer may be cached, the caller's stored role and status are not.
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
  if (Object.keys(route.grants).length > 0) dataConfig();
  if (route.paginated === true) cursorConfig();
  for (const section of extra) section();
}

const emptyQuery = z.strictObject({});

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
 * normalization, JSON body, problem errors, security headers, request log) around `handle`, with path, query and body
 * validated by the route's contract.
 */
export function httpRoute<R extends RouteOperation>(
  route: R,
  handle: (input: RouteInput<R['contract']>) => Promise<HttpResult>,
  options: HttpRouteOptions = {},
): RouteHandler {
  const contract: RouteContract = route.contract;
  const { resolveCaller } = options;
  if (route.auth === 'bearer' && resolveCaller === undefined) throw new Error(`Route ${route.name} is guarded but resolves no caller.`);
  loadConfiguration(route, options.configuration ?? []);

  const base = async (event: EventWithJsonBody, context: Context): Promise<APIGatewayProxyResult> => {
    // The caller first: a suspended caller gets its 403 whatever else is wrong with the request.
    const caller = resolveCaller ? await resolveCaller(callerOf(event)) : (undefined as unknown as StoredCaller);
    const path = contract.pathParameters ? parseInput(contract.pathParameters, event.pathParameters ?? {}, 'path') : undefined;
    const query = parseInput(contract.query ?? emptyQuery, decodeQuery(event.multiValueQueryStringParameters, event.queryStringParameters), 'query');
    const body = contract.body ? parseInput(contract.body, event.parsedBody, 'body') : assertNoBody(event);
    const headers = event.headers as Record<string, string | undefined>;
    const tokenExpires = route.auth === 'bearer' ? tokenExpiryOf(event) : undefined;
    return toProxyResult(await handle({ path, query, body, caller, headers, context, ...(tokenExpires === undefined ? {} : { tokenExpires }) } as never));
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
