import { authorizerFunction } from './auth/authorizer-function';
import { reconcileAvatarObjectsFunction } from './avatars/scheduled-functions';
import { ingestMediaLogFunction } from './media-log/queue-functions';
import { foldMediaLogCountsFunction } from './media-log/stream-functions';
import { routes } from './routes';
import type { DeployedFunction } from './shared/deployment/function-definitions';
import type { RouteDefinition } from './shared/http/route-definition';

/** The deployed function of a route. */
export function routeFunction(route: RouteDefinition): DeployedFunction {
  return { kind: 'route', name: route.name, handler: route.handler, image: route.image === true, route };
}

/**
 * The one list of every function the service deploys: one per route of the route table, the
 * REQUEST authorizer, the scheduled functions, the queue consumers and the stream consumers. The stack deploys each entry, `invoke` lists and
 * runs them, and the benches and the bundle test bundle them, all from this list.
 */
export const deployedFunctions: readonly DeployedFunction[] = [
  ...routes.map(routeFunction),
  { kind: 'authorizer', name: authorizerFunction.name, handler: authorizerFunction.handler, image: false, authorizer: authorizerFunction },
  ...[reconcileAvatarObjectsFunction].map(
    (scheduled): DeployedFunction => ({ kind: 'schedule', name: scheduled.name, handler: scheduled.handler, image: false, scheduled }),
  ),
  ...[ingestMediaLogFunction].map((consumer): DeployedFunction => ({ kind: 'queue', name: consumer.name, handler: consumer.handler, image: false, consumer })),
  ...[foldMediaLogCountsFunction].map((stream): DeployedFunction => ({ kind: 'stream', name: stream.name, handler: stream.handler, image: false, stream })),
];

/** The deployed function named `name`, or undefined. */
export function deployedFunctionNamed(name: string): DeployedFunction | undefined {
  return deployedFunctions.find((candidate) => candidate.name === name);
}
