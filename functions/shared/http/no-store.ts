import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/** The directive of every answer a bearer token obtained (DESIGN.md section 5). */
export const NO_STORE = 'no-store';

/**
 * `Cache-Control: no-store` on every answer of a route that takes a bearer token, success and
 * problem alike: they carry personal data (a profile, a family's users, a media log) that no
 * browser or shared cache may keep (RFC 9111 section 5.2.2.5).
 */
export function noStore(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const addHeader = (request: HttpRequest): void => {
    const response = request.response;
    if (!response) return;
    const present = Object.keys(response.headers ?? {}).some((name) => name.toLowerCase() === 'cache-control');
    if (!present) request.response = { ...response, headers: { ...response.headers, 'Cache-Control': NO_STORE } };
  };
  // onError runs after the problem middleware has turned the error into its answer.
  return { after: addHeader, onError: addHeader };
}
