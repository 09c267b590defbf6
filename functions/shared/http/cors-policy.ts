import { defineConfig } from '../config/define-config';

/**
 * The one CORS policy (DESIGN.md 5a): which browser origins may read the API's answers, and the
 * headers every CORS answer carries. Pure data and decisions, without middy or CDK, so the
 * functions' middleware, the stack's preflight and gateway responses, and the local gateway all
 * answer from the same list.
 */

/** Environment variable holding the allowed origins: comma-separated, or `*`. */
export const CORS_ORIGINS_ENV = 'CORS_ALLOWED_ORIGINS';

/** Response headers a browser script may read besides the CORS-safelisted ones: every header the OpenAPI document names. */
export const CORS_EXPOSED_HEADERS = ['ETag', 'Retry-After', 'WWW-Authenticate'] as const;

/** Request headers a preflight allows: the bearer token, JSON bodies, conditional updates and retry keys (DESIGN.md 5b). */
export const CORS_ALLOWED_REQUEST_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'Idempotency-Key'] as const;

/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours, Firefox at 24). */
export const CORS_MAX_AGE_SECONDS = 3600;

/** An allowed origin given as `scheme://host:*`: that host on any port. */
interface AnyPortOrigin {
  readonly protocol: string;
  readonly hostname: string;
}

/** The parsed origin list. `none`: no CORS at all; `any`: `*`; `list`: exact origins and any-port hosts. */
export type CorsPolicy =
  | { readonly kind: 'none' }
  | { readonly kind: 'any' }
  | { readonly kind: 'list'; readonly exact: ReadonlySet<string>; readonly anyPort: readonly AnyPortOrigin[] };

/** Thrown at cold start when the origin list is malformed; the message names the bad entry. */
export class InvalidCorsOriginsError extends Error {
  public constructor(entry: string) {
    super(`${CORS_ORIGINS_ENV} must be *, or a comma-separated list of origins (https://app.example.com) or any-port hosts (http://localhost:*); got "${entry}".`);
    this.name = 'InvalidCorsOriginsError';
  }
}

const ANY_PORT = /^(https?):\/\/([^/:*?#@]+):\*$/;

function anyPortOrigin(entry: string): AnyPortOrigin | undefined {
  const match = ANY_PORT.exec(entry);
  const [, scheme, host] = match ?? [];
  if (scheme === undefined || host === undefined || !URL.canParse(`${scheme}://${host}`)) return undefined;
  // The host must already be in the form browsers send (lower case, no trailing dot), or it would never match.
  const { hostname } = new URL(`${scheme}://${host}`);
  return hostname === host ? { protocol: `${scheme}:`, hostname } : undefined;
}

/** A web origin exactly as a browser sends it in `Origin`: http(s)://host[:port], nothing more. */
function isSerializedOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.origin === value && (url.protocol === 'http:' || url.protocol === 'https:') && !url.hostname.includes('*');
}

/** Parse an origin list (the value of `CORS_ALLOWED_ORIGINS`); unset or blank means no CORS. */
export function parseCorsOrigins(text: string | undefined): CorsPolicy {
  const entries = (text ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 0) return { kind: 'none' };
  if (entries.includes('*')) {
    if (entries.length > 1) throw new InvalidCorsOriginsError(entries.join(','));
    return { kind: 'any' };
  }
  const exact = new Set<string>();
  const anyPort: AnyPortOrigin[] = [];
  for (const entry of entries) {
    const host = anyPortOrigin(entry);
    if (host) anyPort.push(host);
    else if (isSerializedOrigin(entry)) exact.add(entry);
    else throw new InvalidCorsOriginsError(entry);
  }
  return { kind: 'list', exact, anyPort };
}

/**
 * The `Access-Control-Allow-Origin` value for a request's `Origin`: `*` when any origin is allowed,
 * the origin itself when it is on the list, `undefined` otherwise (never an echo of a refused one).
 */
export function allowedOrigin(policy: CorsPolicy, origin: string | undefined): string | undefined {
  if (policy.kind === 'any') return '*';
  if (policy.kind === 'none' || origin === undefined || !isSerializedOrigin(origin)) return undefined;
  if (policy.exact.has(origin)) return origin;
  const { protocol, hostname } = new URL(origin);
  return policy.anyPort.some((host) => host.protocol === protocol && host.hostname === hostname) ? origin : undefined;
}

/**
 * How the gateway's own answers (401, 403, 404, 413, 429, 5xx) name the origin, within what an API
 * Gateway gateway response can express: a fixed value, or the request's `Origin` echoed
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-swagger-extensions-gateway-responses.gatewayResponse.html:
 * a header takes a static value or a request parameter; the templates are not run through VTL). `fixed` for `*` or a single exact origin,
 * `echo` for several (DESIGN.md 5a accepts it: those answers carry no data), `undefined` without CORS.
 */
export function gatewayAnswerOrigin(policy: CorsPolicy): { readonly kind: 'fixed'; readonly value: string } | { readonly kind: 'echo' } | undefined {
  if (policy.kind === 'none') return undefined;
  if (policy.kind === 'any') return { kind: 'fixed', value: '*' };
  const [only] = policy.exact;
  return policy.exact.size === 1 && policy.anyPort.length === 0 && only !== undefined ? { kind: 'fixed', value: only } : { kind: 'echo' };
}

/**
 * The headers a preflight gives an allowed origin on a resource with `methods`: `allowOrigin` is
 * the `Access-Control-Allow-Origin` value (an origin, `*`, or the stack's template variable).
 * A resource without methods allows none.
 */
export function preflightCorsHeaders(allowOrigin: string, methods: readonly string[]): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': allowOrigin,
    ...(methods.length > 0 ? { 'Access-Control-Allow-Methods': methods.join(',') } : {}),
    'Access-Control-Allow-Headers': CORS_ALLOWED_REQUEST_HEADERS.join(','),
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
  };
}

/** This process's policy, read from `CORS_ALLOWED_ORIGINS` once, at cold start; a malformed list fails it. */
export const corsPolicy = /* @__PURE__ */ defineConfig('cors', (env): CorsPolicy => {
  try {
    return parseCorsOrigins(env.optional(CORS_ORIGINS_ENV));
  } catch (error) {
    env.problem((error as Error).message);
    return { kind: 'none' };
  }
});
