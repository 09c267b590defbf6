import type { RouteOperation } from '../http/route-definition';
import type { DataGrants } from './data-grants';
import { KEYED_REQUESTS } from './idempotency-access';

/**
 * Everything a route's function may touch: the grants its operation declares and, when it takes an
 * `Idempotency-Key`, the request records of the idempotency table. The stack grants this, the HTTP
 * layer loads the data configuration from it and the OpenAPI document lists the answers of a data
 * store from it, so the flag is the one declaration of the table grant.
 */
export function routeGrants(route: RouteOperation): DataGrants {
  return route.idempotencyKey === true ? { ...route.grants, idempotency: [KEYED_REQUESTS] } : route.grants;
}
