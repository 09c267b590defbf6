import { routeNamed, routes } from '../../functions/routes';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import type * as z from '../../functions/shared/validation/zod';

/**
 * What the smoke checks expect of a stage, read from the route table it was deployed from: the
 * operations its document must list, the methods a preflight must allow, the User a profile read
 * must return. The only place the smoke check knows the route table.
 */

/** The prefix every path of the API lives under, which the stack output `ApiUrl` ends with. */
export const API_BASE_PATH = API_PREFIX;

/** One operation of the API: an HTTP method on a path under {@link API_BASE_PATH}. */
export interface ExpectedOperation {
  readonly method: string;
  readonly path: string;
}

/** Every operation of the route table. */
export function expectedOperations(): ExpectedOperation[] {
  return routes.map((route) => ({ method: route.method, path: route.path }));
}

/** The route the profile checks call: the caller's own profile, GET (and PUT) /user/current. */
export const CURRENT_USER_PATH = routeNamed('getCurrentUser').path;

/** The methods the route table serves on `path`. */
export function methodsOf(path: string): string[] {
  return routes.filter((route) => route.path === path).map((route) => route.method);
}

/** The schema of the User that GET /user/current answers. */
export function currentUserSchema(): z.ZodMiniType {
  const { schema } = routeNamed('getCurrentUser').docs.success;
  return schema;
}
