import { avatarRoutes } from './avatars/routes';
import { liveRoutes } from './live/routes';
import { mediaLogRoutes } from './media-log/routes';
import { openApiRoutes } from './openapi/routes';
import type { RouteDefinition } from './shared/http/route-definition';
import { userRoutes } from './users/routes';

/**
 * The one route table: every route of the API, composed from the features' own route modules
 * (method, path, handler module, authorization, grants and contract beside the feature's schemas),
 * each with its documentation.
 * The CDK stack builds its API Gateway resources and functions from it, the local gateway routes
 * requests with it, `invoke --list` prints it and the OpenAPI document is generated from it.
 */

/** The route table with each entry's literal type, so callers by name get their contract's exact types. */
const routeTable = [...userRoutes, ...openApiRoutes, ...mediaLogRoutes, ...liveRoutes, ...avatarRoutes] as const;

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = routeTable;

/** Names of the routes. */
export type RouteName = (typeof routeTable)[number]['name'];

/** The entry of route `N`, with its literal contract type. */
export type RouteEntry<N extends RouteName> = Extract<(typeof routeTable)[number], { name: N }>;

/** The route named `name`; an unknown name is a programming error. */
export function routeNamed<N extends RouteName>(name: N): RouteEntry<N> {
  const route = routeTable.find((candidate) => candidate.name === name);
  if (!route) throw new Error(`No route named ${name}.`);
  return route as RouteEntry<N>;
}
