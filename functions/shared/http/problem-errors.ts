import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { logger } from '../logger';
import { problemResult, toProblemError } from './problem-response';

/**
 * The one error handler: whatever a middleware or handler throws becomes an RFC 9457 problem
 * response. Client errors are answered as thrown; a 5xx is logged with its cause and answered
 * without internals.
 */
export function problemErrors(): MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> {
  const onError: MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult>['onError'] = (request) => {
    const problem = toProblemError(request.error);
    if (problem.status >= 500) {
      logger.error('Request failed', { code: problem.code, error: request.error as Error });
    }
    request.response = problemResult(problem, request.event.path);
  };
  return { onError };
}
