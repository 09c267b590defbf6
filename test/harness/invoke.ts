import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeNamed, type RouteName } from '../../functions/routes';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import { resetConfiguration as resetAuthorizer } from '../../functions/shared/config/define-config';
import { toAuthorizerContext } from '../../functions/shared/http/caller';
import type { Caller } from '../../functions/shared/access/roles';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { dispatch, runRoute } from '../../local/gateway/dispatch';
import type { LocalResponse } from '../../local/gateway/local-response';
import type { LocalRequest } from '../../local/gateway/proxy-event';
import { matchRoute } from '../../local/gateway/route-matcher';
import { assertMatchesContract } from './contract';
import { ensureSigningKey, mintLocalToken, type LocalSigningKey } from '../../local/signing-key';

/** A request to one route, as a test writes it. */
export interface InvokeRequest {
  /** Values of the route's `{placeholders}`, written into the path as a client would. */
  readonly pathParameters?: Readonly<Record<string, string | number>>;
  /** Raw query string without `?`, e.g. `status=a&status=b&pagination[page]=2`. */
  readonly query?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body (serialized, with `content-type: application/json` unless headers say otherwise). */
  readonly body?: unknown;
  /** A raw body, sent as is. */
  readonly rawBody?: string | Buffer;
  /** Bearer token; see {@link tokenFor}. */
  readonly token?: string;
  /** Skip the authorizer and hand the handler this caller, on purpose (fault and replay tests). */
  readonly caller?: Caller;
}

/** What came back: status, headers (lower-case names), and the body parsed when it is JSON. */
export interface InvokeResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: any;
  readonly raw: LocalResponse;
}

let signingKey: Promise<LocalSigningKey> | undefined;
let runner: Promise<AuthorizerRunner> | undefined;

/** This test file's signing key (a fresh one per file), which the real authorizer trusts. */
export function testSigningKey(): Promise<LocalSigningKey> {
  signingKey ??= ensureSigningKey(mkdtempSync(join(tmpdir(), 'frontend-api-key-'))).then((key) => {
    if (!process.env.AUTH_ISSUER) {
      process.env.AUTH_JWKS_FILE = key.jwksFile;
      resetAuthorizer();
    }
    return key;
  });
  return signingKey;
}

/** A bearer token for a subject (by default a user's id), signed with this file's key. */
export async function tokenFor(subject: string | number, ttlSeconds = 3600): Promise<string> {
  return mintLocalToken(await testSigningKey(), String(subject), ttlSeconds);
}

async function authorizerRunner(): Promise<AuthorizerRunner> {
  await testSigningKey();
  // No caching across requests: tests change users' status between calls.
  runner ??= loadAuthorizer().then((handler) => new AuthorizerRunner(handler, 0));
  return runner;
}

function toResponse(raw: LocalResponse): InvokeResponse {
  const headers = Object.fromEntries(Object.entries(raw.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const text = raw.body.toString('utf8');
  const json = /json/.test(headers['content-type'] ?? '') && text !== '';
  return { status: raw.statusCode, headers, body: json ? JSON.parse(text) : text, raw };
}

/** The request a test means, as the local gateway would receive it. */
export function localRequest(name: RouteName, request: InvokeRequest = {}): LocalRequest {
  const route = routeNamed(name);
  const path = API_PREFIX + route.path.replace(/\{([\w-]+)\}/g, (_, param: string) => {
    const value = request.pathParameters?.[param];
    if (value === undefined) throw new Error(`Route ${name} needs the path parameter ${param}.`);
    return encodeURIComponent(String(value));
  });
  const headers: [string, string][] = Object.entries(request.headers ?? {});
  let body = Buffer.alloc(0);
  if (request.rawBody !== undefined) body = Buffer.from(request.rawBody);
  else if (request.body !== undefined) {
    body = Buffer.from(JSON.stringify(request.body));
    if (!headers.some(([header]) => header.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
  }
  if (request.token !== undefined) headers.push(['Authorization', `Bearer ${request.token}`]);
  return { method: route.method, path, rawQuery: request.query ?? '', headers, body, sourceIp: '127.0.0.1' };
}

/**
 * Call route `name` in-process exactly as the local gateway would — same event builder, the real
 * authorizer (unless `caller` is given), the route's handler — and return the answer.
 */
export async function invoke(name: RouteName, request: InvokeRequest = {}): Promise<InvokeResponse> {
  const local = localRequest(name, request);
  let response: InvokeResponse;
  if (request.caller !== undefined) {
    const match = matchRoute(local.method, local.path);
    if (!match) throw new Error(`No route matches ${local.method} ${local.path}.`);
    // As the authorizer answers for a token valid for another hour.
    response = toResponse(await runRoute(local, match, { ...toAuthorizerContext(request.caller, Math.floor(Date.now() / 1000) + 3600) }));
  } else {
    response = toResponse(await dispatch(local, await authorizerRunner()));
  }
  // Every answer a test receives, errors included, must match the OpenAPI document.
  assertMatchesContract(name, response);
  return response;
}
