import { deployedFunctions } from '../../functions/deployed-functions';
import type { WebSocketHandler } from '../../functions/live/connections/websocket-route';
import type { WebSocketEvent, WebSocketResult } from '../../functions/live/connections/websocket-event';
import type { WebSocketRouteDefinition } from '../../functions/shared/deployment/function-definitions';
import { lambdaContext } from '../gateway/lambda-context';
import { invokeIsolated } from '../gateway/local-invocation';

/** API Gateway's integration timeout of a WebSocket route (the quotas page, functions/live/model/live-limits.ts). */
export const INTEGRATION_TIMEOUT_MS = 29_000;

/** How a route's invocation ended: its result, or why it has none (the function threw, or ran out of time). */
export type RouteOutcome = { readonly result: WebSocketResult; readonly latencyMs: number } | { readonly failure: 'error' | 'timeout'; readonly error?: unknown; readonly latencyMs: number };

/** The WebSocket API's routes as the local server runs them: the deployed list's functions, in-process. */
export class WebSocketRoutes {
  private readonly handlers = new Map<string, Promise<WebSocketHandler>>();
  private readonly byKey: ReadonlyMap<string, WebSocketRouteDefinition>;

  public constructor(definitions: readonly WebSocketRouteDefinition[] = deployedFunctions.flatMap((fn) => (fn.kind === 'websocket' ? [fn.webSocket] : []))) {
    this.byKey = new Map(definitions.map((definition) => [definition.routeKey, definition]));
  }

  /** The route keys a message may select. */
  public get routeKeys(): string[] {
    return [...this.byKey.keys()];
  }

  /** Whether the route's result goes back to the client as a message. */
  public answersClient(routeKey: string): boolean {
    return this.byKey.get(routeKey)?.answersClient === true;
  }

  /** Run the route's function once on `event`, as its own invocation, within the integration timeout. */
  public async invoke(routeKey: string, event: WebSocketEvent): Promise<RouteOutcome> {
    const definition = this.byKey.get(routeKey);
    const started = performance.now();
    const latencyMs = () => performance.now() - started;
    if (definition === undefined) return { failure: 'error', error: new Error(`No route ${routeKey}.`), latencyMs: 0 };
    let loaded = this.handlers.get(routeKey);
    if (loaded === undefined) {
      loaded = import(`../../${definition.handler}`).then((module: { handler: WebSocketHandler }) => module.handler);
      this.handlers.set(routeKey, loaded);
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), INTEGRATION_TIMEOUT_MS);
    });
    try {
      const handler = await loaded;
      const result = await Promise.race([invokeIsolated(handler, event, lambdaContext(definition.name, INTEGRATION_TIMEOUT_MS)), timeout]);
      return result === 'timeout' ? { failure: 'timeout', latencyMs: latencyMs() } : { result, latencyMs: latencyMs() };
    } catch (error) {
      return { failure: 'error', error, latencyMs: latencyMs() };
    } finally {
      clearTimeout(timer);
    }
  }
}
