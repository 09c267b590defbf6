import { randomUUID } from 'node:crypto';
import type { LocalRequest } from './proxy-event';

/**
 * API Gateway's request id: one per HTTP request, shared by the authorizer's event and the route's
 * (`requestContext.requestId`), the access log line and the answer's headers. A client may choose
 * it by sending a UUID in `X-Amzn-RequestId`; API Gateway keeps only a UUID there
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-access-logging.html), so
 * anything else gets an id of the gateway's own.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Response headers that carry the ids: `x-amzn-RequestId` (requestId) and `x-amz-apigw-id` (extendedRequestId). */
export const REQUEST_ID_HEADERS = { requestId: 'x-amzn-RequestId', extendedRequestId: 'x-amz-apigw-id' } as const;

/** The request id of a request with these headers: the client's UUID, or a new one. */
export function requestIdFor(headers: LocalRequest['headers']): string {
  const chosen = headers.findLast(([name]) => name.toLowerCase() === REQUEST_ID_HEADERS.requestId.toLowerCase())?.[1]?.trim();
  return chosen !== undefined && UUID.test(chosen) ? chosen.toLowerCase() : randomUUID();
}

/** `request` with its request id, made now when it has none. */
export function withRequestId(request: LocalRequest): LocalRequest & { readonly requestId: string } {
  return request.requestId === undefined ? { ...request, requestId: requestIdFor(request.headers) } : (request as LocalRequest & { requestId: string });
}
