import { routes } from '../../functions/routes';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import {
  allowedOrigin,
  CORS_EXPOSED_HEADERS,
  corsPolicy,
  gatewayAnswerOrigin,
  preflightCorsHeaders,
  type CorsPolicy,
} from '../../functions/shared/http/cors-policy';

/**
 * CORS where the gateway answers by itself, exactly as the stack configures API Gateway
 * (lib/cors-preflight.ts, lib/api-gateway-responses.ts): the preflight `OPTIONS` of every resource,
 * and the headers of the gateway's own answers (401, 403, 404, 413, 429, 5xx).
 */

/** An API Gateway resource: its path template and the methods of the routes on it. */
interface Resource {
  readonly segments: readonly string[];
  readonly placeholders: number;
  readonly methods: readonly string[];
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

/** Every resource of the API, intermediate ones included, as the stack creates them from the route table. */
function resourceTree(): Resource[] {
  const methods = new Map<string, string[]>([['', []]]);
  for (const route of routes) {
    const segments = segmentsOf(`${API_PREFIX}${route.path}`);
    for (let depth = 1; depth <= segments.length; depth += 1) {
      const key = segments.slice(0, depth).join('/');
      if (!methods.has(key)) methods.set(key, []);
    }
    methods.get(segments.join('/'))?.push(route.method);
  }
  return [...methods].map(([key, list]) => {
    const segments = segmentsOf(key);
    return { segments, placeholders: segments.filter((segment) => segment.startsWith('{')).length, methods: list };
  });
}

const resources = resourceTree();

/** The resource a path falls on; literal segments win over placeholders, as in API Gateway. */
function resourceAt(path: string): Resource | undefined {
  const wanted = segmentsOf(path);
  // API Gateway keeps a trailing slash (or a doubled one) apart: /user/ is no resource.
  if (path !== `/${wanted.join('/')}`) return undefined;
  const fits = (resource: Resource) =>
    resource.segments.length === wanted.length &&
    resource.segments.every((segment, index) => segment.startsWith('{') || segment === wanted[index]);
  return resources.filter(fits).sort((a, b) => a.placeholders - b.placeholders)[0];
}

/** The value of the request's `Origin` header, whatever the case of its name. */
export function requestOrigin(headers: readonly (readonly [string, string])[]): string | undefined {
  return headers.findLast(([name]) => name.toLowerCase() === 'origin')?.[1];
}

/**
 * The preflight answer of the resource at `path`: 204, and for an allowed origin the origin, the
 * resource's methods, the request headers the API reads and how long to cache it. A refused origin
 * gets `Vary: Origin` only, so the browser refuses the request. `undefined` when there is no such
 * resource or no CORS at all: API Gateway then has no OPTIONS method there, and answers 404.
 */
export function preflightHeaders(path: string, origin: string | undefined, policy: CorsPolicy = corsPolicy()): Record<string, string> | undefined {
  const resource = resourceAt(path);
  if (!resource || policy.kind === 'none') return undefined;
  const allowed = allowedOrigin(policy, origin);
  return { ...(allowed === undefined ? {} : preflightCorsHeaders(allowed, resource.methods)), Vary: 'Origin' };
}

/**
 * The CORS headers of the gateway's own answers: a fixed origin (one configured, or `*`) or the
 * request's echoed (several), since a gateway response can express nothing finer; locally the same
 * for parity (DESIGN.md 5a).
 */
export function gatewayAnswerCorsHeaders(origin: string | undefined, policy: CorsPolicy = corsPolicy()): Record<string, string> {
  const rule = gatewayAnswerOrigin(policy);
  if (rule === undefined) return {};
  const value = rule.kind === 'fixed' ? rule.value : origin;
  return {
    ...(value === undefined ? {} : { 'Access-Control-Allow-Origin': value }),
    'Access-Control-Expose-Headers': CORS_EXPOSED_HEADERS.join(', '),
    Vary: 'Origin',
  };
}
