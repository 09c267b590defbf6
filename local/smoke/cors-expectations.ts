import { CORS_ALLOWED_REQUEST_HEADERS, CORS_EXPOSED_HEADERS } from '../../functions/shared/http/cors-policy';
import { describeAnswer, headerItems } from './answer-expectations';
import type { ProbeAnswer } from './http-probe';

/**
 * What a browser needs of the stage's CORS answers (DESIGN.md 5a), from the same header lists the
 * API is built from (functions/shared/http/cors-policy.ts). Each function returns one-line failures.
 */

/** The header a browser reads to decide whether a page of `origin` may see the answer. */
function allowedOriginFailure(answer: ProbeAnswer, origin: string): string | undefined {
  const allowed = answer.headers.get('access-control-allow-origin');
  if (allowed === null) return `no Access-Control-Allow-Origin for ${origin} (is it in the stage's corsOrigins?)`;
  if (allowed !== origin && allowed !== '*') return `Access-Control-Allow-Origin is ${allowed}, not ${origin}`;
  return undefined;
}

function credentialsFailure(answer: ProbeAnswer): string | undefined {
  // Bearer tokens, not cookies: allowing credentials would only widen what a page may do.
  return answer.headers.has('access-control-allow-credentials') ? 'sends Access-Control-Allow-Credentials; the API takes bearer tokens, not cookies' : undefined;
}

/**
 * The failure of a list header (`Access-Control-Allow-Methods: GET, PUT`) lacking some of `wanted`,
 * or undefined. A `*` item covers the names `wildcardCovers` accepts.
 */
function listFailure(answer: ProbeAnswer, header: string, wanted: readonly string[], wildcardCovers: (name: string) => boolean = () => true): string | undefined {
  const items = headerItems(answer, header);
  const wildcard = items.includes('*');
  const absent = wanted.filter((name) => !items.includes(name.toLowerCase()) && !(wildcard && wildcardCovers(name)));
  return absent.length > 0 ? `${header} lacks ${absent.join(', ')}` : undefined;
}

function varyFailure(answer: ProbeAnswer, origin: string): string | undefined {
  const namesOrigin = answer.headers.get('access-control-allow-origin') === origin;
  return namesOrigin && !headerItems(answer, 'vary').includes('origin') ? 'names the origin without Vary: Origin' : undefined;
}

function defined(failures: readonly (string | undefined)[]): string[] {
  return failures.filter((failure) => failure !== undefined);
}

/**
 * Failures of an answer that a page of `origin` must be able to read: the origin allowed, the
 * API's headers exposed (ETag for If-Match, WWW-Authenticate to refresh a token, Retry-After), and
 * `Vary: Origin` when the answer names the origin, so no cache serves it to another.
 */
export function corsAnswerFailures(answer: ProbeAnswer, origin: string): string[] {
  const notAllowed = allowedOriginFailure(answer, origin);
  if (notAllowed) return [notAllowed];
  return defined([
    listFailure(answer, 'Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS),
    varyFailure(answer, origin),
    credentialsFailure(answer),
  ]);
}

/**
 * Failures of a preflight answer for `origin` on a path serving `methods`: a 2xx status (API
 * Gateway's mock integration answers 200, the local gateway 204), the origin, every method and the
 * request headers the API reads allowed. A `*` in Access-Control-Allow-Headers does not cover
 * Authorization (https://fetch.spec.whatwg.org/#http-access-control-allow-headers), so it must be named.
 */
export function preflightFailures(answer: ProbeAnswer, origin: string, methods: readonly string[]): string[] {
  if (answer.status < 200 || answer.status > 299) return [`expected 2xx, got ${describeAnswer(answer)}`];
  const notAllowed = allowedOriginFailure(answer, origin);
  if (notAllowed) return [notAllowed];
  return defined([
    listFailure(answer, 'Access-Control-Allow-Methods', methods),
    listFailure(answer, 'Access-Control-Allow-Headers', CORS_ALLOWED_REQUEST_HEADERS, (name) => name !== 'Authorization'),
    credentialsFailure(answer),
  ]);
}
