import type { MiddlewareObj, Request } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../logger';

type HttpRequest = Request<APIGatewayProxyEvent, APIGatewayProxyResult>;

/**
 * One structured log line per request: method, resource, status and duration, with the Lambda
 * request id and the API Gateway request id that a client can quote. Ids travel as attributes of
 * the line rather than as logger-wide keys, because the local gateway serves requests concurrently
 * in one process.
 */
export function requestLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const startedAt = new WeakMap<HttpRequest, number>();

  const before = (request: HttpRequest): void => {
    startedAt.set(request, performance.now());
  };

  const done = (request: HttpRequest): void => {
    const started = startedAt.get(request) ?? performance.now();
    logger.info('Request', {
      requestId: request.context.awsRequestId,
      apiRequestId: request.event.requestContext?.requestId,
      functionName: request.context.functionName,
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: request.response?.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  };

  // Registered first, so its after/onError run last and see the final response.
  return { before, after: done, onError: done };
}
