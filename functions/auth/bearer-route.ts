import { getDocumentClient } from '../shared/aws/clients';
import { tableName } from '../shared/config/data-config';
import { httpRoute, type HttpResult, type HttpRouteOptions, type RouteHandler, type RouteInput } from '../shared/http/http-route';
import type { RouteOperation } from '../shared/http/route-definition';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { IdentityRepository } from './identity-repository';
import { StoredCallers } from './stored-callers';

/** The callers of the bearer routes, read as stored. */
const storedCallers = /* @__PURE__ */ lazy(() => new StoredCallers(new IdentityRepository(getDocumentClient(), tableName(usersTable))));

/**
 * The Lambda handler of a route the authorizer guards: the shared HTTP layer, with the caller read
 * from the users table in the same request (see StoredCallers), so that `handle` acts on the
 * caller's role and status as they are now, not as the authorizer's cached answer had them.
 */
export function bearerRoute<R extends RouteOperation & { readonly auth: 'bearer' }>(
  route: R,
  handle: (input: RouteInput<R['contract']>) => Promise<HttpResult>,
  options: Pick<HttpRouteOptions, 'configuration'> = {},
): RouteHandler {
  return httpRoute(route, handle, { ...options, resolveCaller: (claims) => storedCallers().resolve(claims) });
}
