import { parseCommand } from '../cli/arguments';
import { UsageError } from '../cli/cli-errors';

/**
 * The command line of `npm run smoke`: which stage to check and with what. Everything is checked
 * here, before any request, so a mistyped command is a usage error (exit 2), never a failed check.
 */

/** What a smoke run needs to know. */
export interface SmokeOptions {
  /** The API's base URL, without a trailing slash: the stack output `ApiUrl`, ending in /frontend/api/v1. */
  readonly baseUrl: string;
  /** A bearer token of an active user; the checks that need one are skipped without it. */
  readonly token?: string;
  /** A browser origin the stage allows; the CORS checks are skipped without it. */
  readonly origin?: string;
  /** Time limit of each request, in milliseconds. */
  readonly timeoutMs: number;
}

/** What the command line asks for: a run, or the usage text. */
export type SmokeCommand = { readonly kind: 'help' } | { readonly kind: 'run'; readonly options: SmokeOptions };

/** Default time limit of one request: generous for a cold start behind API Gateway, short enough for a pipeline. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Longest time limit accepted: API Gateway gives up after 29 s, so anything near this is a typo. */
const MAX_TIMEOUT_MS = 600_000;

/** `npm run smoke -- --help`. */
export const SMOKE_USAGE = `usage: npm run --silent smoke -- --url API_URL [--token TOKEN] [--origin ORIGIN] [--timeout-ms N]

Checks a deployed stage from outside, one line per check (ok, warn, FAIL or skip):
  document   GET /openapi.json: 200, application/json, OpenAPI 3.1.x, every operation of the route table
  401        GET /user/current without a token: the 401 problem with WWW-Authenticate: Bearer error="invalid_token"
  preflight  OPTIONS /user/current from ORIGIN: 2xx, the origin, the path's methods and the API's headers allowed
  user       GET /user/current with TOKEN: 200, a User, an ETag, Cache-Control: no-store; CORS headers with --origin
  404        GET a route that does not exist: the 404 problem, code not_found

  --url API_URL    the API's base URL: the ApiUrl stack output (https://…/prod/frontend/api/v1)
  --token TOKEN    a bearer token of an active user (without "Bearer "); the user check needs it
  --origin ORIGIN  a browser origin the stage allows (corsOrigins); the preflight check needs it
  --timeout-ms N   time limit of each request in milliseconds (default ${DEFAULT_TIMEOUT_MS}); no retries

Exit status: 0 when every check that ran passed, 1 when one failed, 2 for a usage error.
`;

const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  origin: { type: 'string' },
  'timeout-ms': { type: 'string' },
  help: { type: 'boolean' },
} as const;

function baseUrlOf(raw: string | undefined): string {
  if (raw === undefined) throw new UsageError('--url is required: the API\'s base URL (the ApiUrl stack output).');
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw new UsageError(`--url takes the API's base URL, http(s)://host/…/frontend/api/v1 without query or credentials; got '${raw}'.`);
  }
  return url.href.replace(/\/+$/, '');
}

// RFC 6750 section 2.1: the b64token syntax of a bearer credential (a JWT is one).
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function tokenOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!BEARER_TOKEN.test(raw)) throw new UsageError('--token takes the bearer token itself (letters, digits and -._~+/, without "Bearer ").');
  return raw;
}

function originOf(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  // An Origin header is a serialized origin (RFC 6454 section 6.2): scheme, host, port, nothing else.
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== raw) {
    throw new UsageError(`--origin takes an origin as a browser sends it, e.g. https://app.example.com (no path, no trailing slash); got '${raw}'.`);
  }
  return raw;
}

function timeoutOf(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_TIMEOUT_MS;
  const value = /^\d{1,7}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= MAX_TIMEOUT_MS)) throw new UsageError(`--timeout-ms takes a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}.`);
  return value;
}

/** Parse `npm run smoke -- …`; an unknown option or a bad value throws a {@link UsageError}. */
export function parseSmokeCommand(argv: string[]): SmokeCommand {
  const { values } = parseCommand(argv, OPTIONS);
  if (values.help !== undefined) return { kind: 'help' };
  const baseUrl = baseUrlOf(values.url);
  const token = tokenOf(values.token);
  const origin = originOf(values.origin);
  return {
    kind: 'run',
    options: {
      baseUrl,
      timeoutMs: timeoutOf(values['timeout-ms']),
      ...(token === undefined ? {} : { token }),
      ...(origin === undefined ? {} : { origin }),
    },
  };
}
