import { authorizerFunction } from './auth/authorizer-function';
import { reconcileAvatarObjectsFunction } from './avatars/scheduled-functions';
import { rekeyMovedUsersFunction } from './media-log/family/family-functions';
import { ingestMediaLogFunction } from './media-log/feed/queue-functions';
import { applyMediaLogDeltasFunction, foldMediaLogCountsFunction } from './media-log/fold/stream-functions';
import { closeExpiredLiveConnectionsFunction, reviseLiveAccessFunction } from './live/access/access-functions';
import { webSocketRoutes } from './live/connections/websocket-routes';
import { notifyMediaLogWatchersFunction } from './live/notify/stream-functions';
import { routes } from './routes';
import type { DeployedFunction, ServiceFunctions } from './shared/deployment/function-definitions';

/**
 * The one list of every function the service deploys, by what invokes it: one per route of the
 * route table, the REQUEST authorizer, the scheduled functions, the queue consumers, the stream
 * consumers and the routes of the live media log's WebSocket API. The stack deploys each group with its construct; `invoke` lists and runs them, and
 * the benches and the bundle test bundle them, one entry each ({@link deployedFunctions}).
 */
export const serviceFunctions: ServiceFunctions = {
  routes,
  authorizer: authorizerFunction,
  scheduled: [reconcileAvatarObjectsFunction, closeExpiredLiveConnectionsFunction],
  queueConsumers: [ingestMediaLogFunction],
  streamConsumers: [foldMediaLogCountsFunction, applyMediaLogDeltasFunction, notifyMediaLogWatchersFunction, reviseLiveAccessFunction, rekeyMovedUsersFunction],
  webSocketRoutes,
};

/** The functions of `functions`, one entry each, with what invokes it. */
export function deployedFunctionsOf(functions: ServiceFunctions): DeployedFunction[] {
  const entry = { image: false } as const;
  return [
    ...functions.routes.map(
      (route): DeployedFunction => ({ kind: 'route', name: route.name, handler: route.handler, image: route.image === true, idempotencyKey: route.idempotencyKey === true, route }),
    ),
    { ...entry, kind: 'authorizer', name: functions.authorizer.name, handler: functions.authorizer.handler, authorizer: functions.authorizer },
    ...functions.scheduled.map((scheduled): DeployedFunction => ({ ...entry, kind: 'schedule', name: scheduled.name, handler: scheduled.handler, scheduled })),
    ...functions.queueConsumers.map((consumer): DeployedFunction => ({ ...entry, kind: 'queue', name: consumer.name, handler: consumer.handler, consumer })),
    ...functions.streamConsumers.map((stream): DeployedFunction => ({ ...entry, kind: 'stream', name: stream.name, handler: stream.handler, stream })),
    ...functions.webSocketRoutes.map((webSocket): DeployedFunction => ({ ...entry, kind: 'websocket', name: webSocket.name, handler: webSocket.handler, webSocket })),
  ];
}

/** Every deployed function, one entry each: what `invoke` lists and runs and the benches bundle. */
export const deployedFunctions: readonly DeployedFunction[] = deployedFunctionsOf(serviceFunctions);

/** The deployed function named `name`, or undefined. */
export function deployedFunctionNamed(name: string): DeployedFunction | undefined {
  return deployedFunctions.find((candidate) => candidate.name === name);
}
