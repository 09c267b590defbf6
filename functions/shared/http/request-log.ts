import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../logger';

/**
 * One structured log line per request: method, resource, status and duration, with the Lambda
 * request id and the API Gateway request id that a client can quote.
 */
export function requestLog(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  let startedAt = 0;

  const before: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>['before'] = (request) => {
    startedAt = performance.now();
    logger.addContext(request.context);
    logger.appendKeys({ apiRequestId: request.event.requestContext?.requestId });
  };

  const done: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>['after'] = (request) => {
    logger.info('Request', {
      method: request.event.httpMethod,
      resource: request.event.resource,
      status: request.response?.statusCode,
      durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
    });
    logger.resetKeys();
  };

  // Registered last so that its onError sees the problem response the error handler set.
  return { before, after: done, onError: done };
}
