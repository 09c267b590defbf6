import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { MiddlewareObj, Request } from '@middy/core';
import { logger } from '../logger';
import { flushMetrics } from './metrics';

/** What every log line of an invocation carries besides the Lambda context. */
export interface InvocationKeys {
  /** API Gateway's request id, shared by the authorizer's and the route's invocations of one request. */
  readonly correlationId?: string | null;
  /** `METHOD /resource/path` of the route the request is for, as API Gateway's access log names it. */
  readonly route?: string;
}

/**
 * The telemetry of one invocation, registered first on every function: Powertools Logger's
 * Lambda-context injection (`function_request_id`, `function_name`, `cold_start` on every line),
 * the request's `correlation_id` and `route` as keys of this invocation only, and, when it ends,
 * its stored metrics written and its keys dropped. Registered first, its `after` and `onError` run
 * last, so the request line and the error line of a 5xx still carry the keys.
 *
 * Safe with invocations that share a process (the local gateway): the context and the keys live in
 * the invocation's InvokeStore context when `AWS_LAMBDA_MAX_CONCURRENCY` is set
 * (local/gateway/local-invocation.ts), not on the logger.
 */
export function invocationTelemetry<E, R>(keysOf: (event: E) => InvocationKeys): MiddlewareObj<E, R> {
  const lambdaContext = injectLambdaContext(logger, { resetKeys: true });
  type Invocation = Request<E, R>;
  const before = (request: Invocation): void => {
    lambdaContext.before?.(request as never);
    const { correlationId, route } = keysOf(request.event);
    if (correlationId) logger.setCorrelationId(correlationId);
    if (route) logger.appendKeys({ route });
  };
  const after = async (request: Invocation): Promise<void> => {
    flushMetrics();
    await lambdaContext.after?.(request as never);
  };
  const onError = async (request: Invocation): Promise<void> => {
    flushMetrics();
    await lambdaContext.onError?.(request as never);
  };
  return { before, after, onError };
}

/** The `route` key of a request: its method and API Gateway resource path. */
export function routeKey(method: string, resourcePath: string): string {
  return `${method} ${resourcePath}`;
}
