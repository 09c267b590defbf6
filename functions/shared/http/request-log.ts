import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../logger';

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/**
 * One structured log line per request: method, resource, status and duration. The Lambda request
 * id, the API Gateway request id and the route come with every line of the invocation
 * (observability/invocation-telemetry.ts).
 */
export function requestLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const startedAt = new WeakMap<HttpRequest, number>();

  const before = (request: HttpRequest): void => {
    startedAt.set(request, performance.now());
  };

  const done = (request: HttpRequest): void => {
    const started = startedAt.get(request) ?? performance.now();
    logger.info('Request', {
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: request.response?.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  };

  // Registered after the invocation's telemetry, so its after/onError run before the keys are
  // dropped, and after every other middleware's, so it sees the final response.
  return { before, after: done, onError: done };
}
