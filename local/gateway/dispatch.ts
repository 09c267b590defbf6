import type { APIGatewayProxyResult, Context } from 'aws-lambda';
import { gatewayProblem, type GatewayAnswerType } from '../../functions/shared/http/gateway-problems';
import { PROBLEM_MEDIA_TYPE } from '../../functions/shared/http/problem-catalog';
import type { RouteDefinition } from '../../functions/shared/http/route-definition';
import type { GatewayFacts } from './access-log';
import type { AuthorizerRunner } from './authorizer-runner';
import { gatewayAnswerCorsHeaders, preflightHeaders, requestOrigin } from './cors';
import { lambdaContext } from './lambda-context';
import { invokeIsolated } from './local-invocation';
import { serveDocs } from './docs-page';
import type { LocalResponse } from './local-response';
import { buildProxyEvent, type LocalRequest } from './proxy-event';
import { REQUEST_ID_HEADERS, withRequestId } from './request-id';
import { matchRoute, type RouteMatch } from './route-matcher';

/** API Gateway's limits, which the local gateway enforces the same way. */
export const GATEWAY_LIMITS = {
  /** Largest request payload API Gateway accepts. */
  maxBodyBytes: 10 * 1024 * 1024,
  /** Integration timeout of a REST API. */
  timeoutMs: 29_000,
} as const;

type ProxyHandler = (event: ReturnType<typeof buildProxyEvent>, context: Context) => Promise<APIGatewayProxyResult>;

const handlers = new Map<string, Promise<ProxyHandler>>();

/** Load (once) the handler module a route names. */
export function loadRouteHandler(route: RouteDefinition): Promise<ProxyHandler> {
  let loaded = handlers.get(route.name);
  if (!loaded) {
    loaded = import(`../../${route.handler}`).then((module: { handler: ProxyHandler }) => module.handler);
    handlers.set(route.name, loaded);
  }
  return loaded;
}

/**
 * The customized gateway response of a type, as API Gateway would send it, with the CORS headers
 * the stack gives gateway responses (for the request's `origin`); `facts` are what the gateway
 * knew of the request when it answered.
 */
export function gatewayResponse(type: GatewayAnswerType, origin?: string, facts: GatewayFacts = {}): LocalResponse {
  const problem = gatewayProblem(type);
  const headers = { 'content-type': PROBLEM_MEDIA_TYPE, ...problem.headers, ...gatewayAnswerCorsHeaders(origin) };
  return {
    statusCode: problem.status,
    headers,
    multiValueHeaders: {},
    body: Buffer.from(JSON.stringify(problem.body)),
    facts: { ...facts, errorType: type },
  };
}

/**
 * An answer with the request's ids, as API Gateway sends them on every answer: `x-amzn-RequestId`
 * and `x-amz-apigw-id` (one id serves both locally).
 */
export function identified(answer: LocalResponse, requestId: string): LocalResponse {
  const headers = { ...answer.headers, [REQUEST_ID_HEADERS.requestId]: requestId, [REQUEST_ID_HEADERS.extendedRequestId]: requestId };
  return { ...answer, headers };
}

/**
 * Map a proxy result back to HTTP, as API Gateway does (multi-value headers, base64 bodies). The
 * Lambda runtime hands API Gateway the result serialized with JSON.stringify
 * (https://docs.aws.amazon.com/lambda/latest/dg/nodejs-handler.html), which drops members whose
 * value is `undefined` (middy's security headers set `Server` and `X-Powered-By` so): such a header
 * is never sent, rather than sent as the text "undefined".
 */
export function fromProxyResult(result: APIGatewayProxyResult): LocalResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (value !== undefined) headers[name] = String(value);
  }
  const multiValueHeaders: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    if (values !== undefined) multiValueHeaders[name] = values.filter((value) => value !== undefined).map(String);
  }
  const body = result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : Buffer.from(result.body ?? '', 'utf8');
  return { statusCode: result.statusCode, headers, multiValueHeaders, body };
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Serve one request as API Gateway and Lambda would: answer a CORS preflight (OPTIONS) itself,
 * match the route (404 when none), enforce the body limit (413), run the authorizer on guarded
 * routes (401 / 403), then the route's handler in-process with the integration timeout (504); a
 * handler that throws is a 502, as in AWS. One request id (the request's own, or a new one) goes
 * to the authorizer's event, the route's event and the answer's headers.
 */
export async function dispatch(request: LocalRequest, authorizer: AuthorizerRunner, timeoutMs: number = GATEWAY_LIMITS.timeoutMs): Promise<LocalResponse> {
  const withId = withRequestId(request);
  return identified(await serveRequest(withId, authorizer, timeoutMs), withId.requestId);
}

async function serveRequest(request: LocalRequest, authorizer: AuthorizerRunner, timeoutMs: number): Promise<LocalResponse> {
  // The interactive documentation is a local convenience, not an API route: it is not deployed.
  const docs = serveDocs(request.method, request.path);
  if (docs) return docs;
  const origin = requestOrigin(request.headers);
  const preflight = request.method === 'OPTIONS' ? preflightHeaders(request.path, origin) : undefined;
  if (preflight) return { statusCode: 204, headers: preflight, multiValueHeaders: {}, body: Buffer.alloc(0) };
  const match = matchRoute(request.method, request.path);
  if (!match) return gatewayResponse('MISSING_AUTHENTICATION_TOKEN', origin);
  const matched: GatewayFacts = { resourcePath: match.resource };
  if (request.body.byteLength > GATEWAY_LIMITS.maxBodyBytes) return gatewayResponse('REQUEST_TOO_LARGE', origin, matched);
  let context: Record<string, string | number | boolean> | null = null;
  if (match.route.auth === 'bearer') {
    const outcome = await authorizer.authorize(buildProxyEvent(request, match, null)).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (outcome instanceof Error) return gatewayResponse('AUTHORIZER_FAILURE', origin, { ...matched, authorizerError: outcome.message });
    if (outcome.kind === 'unauthorized') return gatewayResponse('UNAUTHORIZED', origin, { ...matched, authorizerError: 'Unauthorized' });
    if (outcome.kind === 'deny') return gatewayResponse('ACCESS_DENIED', origin, matched);
    context = outcome.context;
  }
  return runRoute(request, match, context, timeoutMs);
}

/**
 * Run a matched route's handler on the event for `request`, with `authorizer` as the authorizer
 * context (null on public routes), under the integration timeout.
 */
export async function runRoute(
  request: LocalRequest,
  match: RouteMatch,
  authorizer: Record<string, string | number | boolean> | null,
  timeoutMs: number = GATEWAY_LIMITS.timeoutMs,
): Promise<LocalResponse> {
  const withId = withRequestId(request);
  const event = buildProxyEvent(withId, match, authorizer);
  const origin = requestOrigin(request.headers);
  const started = performance.now();
  const facts = (): GatewayFacts => ({
    resourcePath: match.resource,
    ...(authorizer?.userId === undefined ? {} : { userId: String(authorizer.userId) }),
    integrationLatencyMs: performance.now() - started,
  });
  let answer: LocalResponse;
  try {
    const handler = await loadRouteHandler(match.route);
    const result = await withTimeout(invokeIsolated(handler, event, lambdaContext(match.route.name, timeoutMs)), timeoutMs);
    answer = result === 'timeout' ? gatewayResponse('INTEGRATION_TIMEOUT', origin, facts()) : { ...fromProxyResult(result), facts: facts() };
  } catch {
    answer = gatewayResponse('INTEGRATION_FAILURE', origin, facts());
  }
  return identified(answer, withId.requestId);
}
