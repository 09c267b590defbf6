import { routes, type RouteName } from '../../functions/routes';
import { runRoute } from '../../local/gateway/dispatch';
import type { LocalGateway } from '../../local/gateway/http-server';
import { matchRoute } from '../../local/gateway/route-matcher';
import { assertMatchesContract } from '../harness/contract';
import { localRequest, tokenFor } from '../harness/invoke';
import { startTestGateway } from '../harness/test-gateway';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * Expiry bites on the next request whatever the authorizer cache holds (DESIGN 3). API Gateway
 * reuses the authorizer's answer for a token for the cache TTL (300 s as deployed) whatever the
 * token's `exp` (https://docs.aws.amazon.com/apigateway/latest/api/API_Authorizer.html,
 * `authorizerResultTtlInSeconds`), and the local gateway does the same: so the authorizer passes the
 * token's `exp` in its context and every guarded route refuses a token past it, with the same 401.
 */

const PREFIX = '/frontend/api/v1';
/** The clock tolerance the authorizer grants a token past its `exp`, in seconds. */
const TOLERANCE_SECONDS = 5;

let gateway: LocalGateway;
let authorizerCalls: () => number;
let user: TestUser;

beforeAll(async () => {
  // The cache on, with API Gateway's default TTL.
  ({ gateway, authorizerCalls } = await startTestGateway(300));
  user = await createTestUser();
});

afterAll(async () => {
  await gateway.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The `exp` a token carries. */
function expiryOf(token: string): number {
  return (JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as { exp: number }).exp;
}

async function getCurrentUser(token: string) {
  const response = await fetch(`${gateway.baseUrl}${PREFIX}/user/current`, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: (await response.json()) as { code?: string } };
}

describe('a token that expires while its authorizer answer is cached, through the local gateway over HTTP', () => {
  it('is answered 200 before its expiry and 401 invalid_token after it, without the authorizer being asked again', async () => {
    const token = await tokenFor(user.record.subject, 1);
    const before = authorizerCalls();
    expect((await getCurrentUser(token)).status).toBe(200);

    await sleep((expiryOf(token) + TOLERANCE_SECONDS) * 1000 - Date.now() + 300);
    const after = await getCurrentUser(token);

    expect(after).toEqual({ status: 401, challenge: 'Bearer error="invalid_token"', body: expect.objectContaining({ status: 401, code: 'unauthorized' }) });
    // The answer came from the cache: the route refused the token, not the authorizer.
    expect(authorizerCalls() - before).toBe(1);
  }, 15_000);
});

/** Every route the authorizer guards, with the path parameters it needs. */
const GUARDED = routes.filter((route) => route.auth === 'bearer').map((route) => route.name as RouteName);
const PATH_VALUES: Readonly<Record<string, string>> = { 'user-id': '1', 'avatar-id': '00000000-0000-4000-8000-000000000000' };

/** Route `name` run on the event API Gateway builds with `authorizer` as the (cached) authorizer context. */
async function withContext(name: RouteName, authorizer: Record<string, string>) {
  const route = routes.find((candidate) => candidate.name === name);
  const pathParameters = Object.fromEntries([...(route?.path.matchAll(/\{([\w-]+)\}/g) ?? [])].map(([, param]) => [param as string, PATH_VALUES[param as string] as string]));
  const request = localRequest(name, { pathParameters });
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error(`No route matches ${request.method} ${request.path}.`);
  const raw = await runRoute(request, match, authorizer);
  const headers = Object.fromEntries(Object.entries(raw.headers).map(([header, value]) => [header.toLowerCase(), value]));
  const response = { status: raw.statusCode, headers, body: JSON.parse(raw.body.toString('utf8') || 'null') as unknown, raw };
  assertMatchesContract(name, response);
  return response;
}

/** The context the authorizer gave for `user`'s token, with the token's `exp` as API Gateway hands it on (a string). */
function contextExpiring(exp: number): Record<string, string> {
  return { userId: String(user.record.id), role: user.record.role, parentId: '', exp: String(exp) };
}

describe('a guarded route handed a cached authorizer context', () => {
  it.each(GUARDED)('%s answers 401 invalid_token when the token is past its exp', async (name) => {
    const response = await withContext(name, contextExpiring(Math.floor(Date.now() / 1000) - TOLERANCE_SECONDS - 60));
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(response.body).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('serves a token within its exp (and the clock tolerance past it)', async () => {
    expect((await withContext('getCurrentUser', contextExpiring(Math.floor(Date.now() / 1000) + 60))).status).toBe(200);
    expect((await withContext('getCurrentUser', contextExpiring(Math.floor(Date.now() / 1000) - 1))).status).toBe(200);
  });

  it.each([['not a number', 'soon'], ['a fraction', '1.5'], ['empty', '']])('answers 401 to an exp that is %s', async (_, exp) => {
    const response = await withContext('getCurrentUser', { ...contextExpiring(0), exp });
    expect(response.status).toBe(401);
  });
});
