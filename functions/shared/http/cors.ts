import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { allowedOrigin, CORS_EXPOSED_HEADERS, corsPolicy, type CorsPolicy } from './cors-policy';

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

const EXPOSED_HEADERS = CORS_EXPOSED_HEADERS.join(', ');

/** The request's `Origin`, whatever case the client wrote the name in (API Gateway keeps it as sent). */
function originOf(event: APIGatewayProxyEvent): string | undefined {
  const headers = event.headers ?? {};
  return headers.origin ?? headers.Origin ?? Object.entries(headers).find(([name]) => name.toLowerCase() === 'origin')?.[1];
}

/**
 * CORS headers on every answer of a function, success and problem alike: with Lambda proxy
 * integration API Gateway passes the function's answer through untouched, so the function itself
 * must name the origin (https://docs.aws.amazon.com/apigateway/latest/developerguide/how-to-cors.html).
 * An allowed origin gets `Access-Control-Allow-Origin` (itself, or `*`) and the headers a script may
 * read; a refused or absent one gets neither. `Vary: Origin` goes on every answer, because the
 * answer depends on the request's `Origin` and a cache must not hand one origin's answer to
 * another (Fetch standard, "CORS protocol and HTTP caches"). Never `Access-Control-Allow-Credentials`:
 * the API takes bearer tokens, not cookies.
 *
 * Written for this API rather than taken from `@middy/http-cors` 6: that one sends
 * `Access-Control-Expose-Headers` to refused origins too and leaves out `Vary: Origin` when a single
 * origin is listed; and the local gateway must decide with this very policy.
 */
export function cors(policy: CorsPolicy = corsPolicy()): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const addHeaders = (request: HttpRequest): void => {
    const response = request.response;
    if (policy.kind === 'none' || !response) return;
    const origin = allowedOrigin(policy, originOf(request.event));
    const headers: Record<string, string | number | boolean> = { ...response.headers };
    const vary = Object.keys(headers).find((name) => name.toLowerCase() === 'vary');
    if (vary === undefined) headers.Vary = 'Origin';
    else if (!/\borigin\b/i.test(String(headers[vary]))) headers[vary] = `${String(headers[vary])}, Origin`;
    if (origin !== undefined) {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
    }
    request.response = { ...response, headers };
  };
  // onError runs after the problem middleware has turned the error into its answer, so 4xx and 5xx
  // problems carry the same headers as successes.
  return { after: addHeaders, onError: addHeaders };
}
