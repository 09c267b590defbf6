import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { toProblemError } from '../../shared/http/problem-response';
import type { ConfigSection } from '../../shared/config/define-config';
import type { WebSocketRouteDefinition } from '../../shared/deployment/function-definitions';
import { dataConfig } from '../../shared/config/data-config';
import type { LiveMessage } from '../model/live-messages';
import { errorMessage, namedSubscription } from './message-frames';
import type { WebSocketEvent, WebSocketResult } from './websocket-event';

/** The Lambda signature of every WebSocket route. */
export type WebSocketHandler = (event: WebSocketEvent, context: Context) => Promise<WebSocketResult>;

/** Every line of the invocation carries API Gateway's request id and the route key. */
function telemetry(route: WebSocketRouteDefinition) {
  return invocationTelemetry<WebSocketEvent, WebSocketResult>((event) => ({ correlationId: event.requestContext?.requestId, route: `WEBSOCKET ${route.routeKey}` }));
}

/** Load at cold start what the route reads: the data names when it touches data, and its own sections. */
function loadConfiguration(route: WebSocketRouteDefinition, sections: readonly ConfigSection<unknown>[]): void {
  if (Object.keys(route.grants).length > 0) dataConfig();
  for (const section of sections) section();
}

/**
 * The handler of `$connect` or `$disconnect`: `handle` accepts the connection (200), or throws a
 * problem whose status refuses it (401, 403, 429). A failure is never an error of the invocation:
 * API Gateway would refuse with a 500 and log nothing of why; the reason is logged here.
 */
export function connectionRoute(route: WebSocketRouteDefinition, handle: (event: WebSocketEvent) => Promise<void>, sections: readonly ConfigSection<unknown>[] = []): WebSocketHandler {
  loadConfiguration(route, sections);
  const base = async (event: WebSocketEvent): Promise<WebSocketResult> => {
    try {
      await handle(event);
      return { statusCode: 200 };
    } catch (error) {
      const problem = toProblemError(error);
      if (problem.status >= 500) logger.error(`${route.routeKey} failed`, { error: problem.cause ?? error });
      else logger.info(`${route.routeKey} refused`, { status: problem.status, code: problem.code, reason: problem.detail });
      return { statusCode: problem.status };
    }
  };
  return middy<WebSocketEvent, WebSocketResult>(base, { timeoutEarlyInMillis: 0 }).use(telemetry(route)) as unknown as WebSocketHandler;
}

/**
 * The handler of a message route: `handle` answers with a message, and whatever it throws is
 * answered too, as an `error` message with the problem's status and code (a 5xx without its
 * internals, logged): a client is never left without an answer, and its connection stays open.
 */
export function messageRoute(route: WebSocketRouteDefinition, handle: (event: WebSocketEvent) => Promise<LiveMessage>, sections: readonly ConfigSection<unknown>[] = []): WebSocketHandler {
  loadConfiguration(route, sections);
  const base = async (event: WebSocketEvent): Promise<WebSocketResult> => {
    let message: LiveMessage;
    try {
      message = await handle(event);
    } catch (error) {
      const problem = toProblemError(error);
      if (problem.status >= 500) logger.error(`${route.routeKey} failed`, { error: problem.cause ?? error });
      message = errorMessage(problem, namedSubscription(event));
    }
    return { statusCode: 200, body: JSON.stringify(message) };
  };
  return middy<WebSocketEvent, WebSocketResult>(base, { timeoutEarlyInMillis: 0 }).use(telemetry(route)) as unknown as WebSocketHandler;
}
