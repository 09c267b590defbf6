import { routes } from '../../functions/routes';
import { API_PREFIX, type RouteDefinition } from '../../functions/shared/http/route-definition';

/** A request path matched to its route, with API Gateway's `resource` and `pathParameters`. */
export interface RouteMatch {
  readonly route: RouteDefinition;
  /** The resource template, e.g. `/frontend/api/v1/user/{user-id}`. */
  readonly resource: string;
  readonly pathParameters: Record<string, string> | null;
}

interface CompiledRoute {
  readonly route: RouteDefinition;
  readonly resource: string;
  readonly pattern: RegExp;
  readonly names: string[];
}

const compiled: CompiledRoute[] = routes.map((route: RouteDefinition) => {
  const resource = `${API_PREFIX}${route.path}`;
  const names: string[] = [];
  const source = resource
    .split('/')
    .map((segment) => {
      const param = /^\{([\w-]+)\}$/.exec(segment);
      if (!param) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(param[1] as string);
      return '([^/]+)';
    })
    .join('/');
  return { route, resource, pattern: new RegExp(`^${source}$`), names };
});

function decodeSegment(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * The route for a method and path, as API Gateway resolves it: literal segments win over
 * placeholders (`/user/current` is not `/user/{user-id}`), a trailing slash is not the same path.
 */
export function matchRoute(method: string, path: string): RouteMatch | null {
  const candidates = compiled.filter((entry) => entry.route.method === method && entry.pattern.test(path));
  // API Gateway prefers the most specific resource: the one with fewest placeholders.
  candidates.sort((a, b) => a.names.length - b.names.length);
  const best = candidates[0];
  if (!best) return null;
  const values = best.pattern.exec(path)?.slice(1) ?? [];
  if (best.names.length === 0) return { route: best.route, resource: best.resource, pathParameters: null };
  const pathParameters: Record<string, string> = {};
  for (const [index, name] of best.names.entries()) {
    const decoded = decodeSegment(values[index] as string);
    if (decoded === null) return null;
    pathParameters[name] = decoded;
  }
  return { route: best.route, resource: best.resource, pathParameters };
}
