import { jest } from '@jest/globals';
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { openApiDocument } from '../../functions/openapi/document';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { NotFoundError } from '../../functions/shared/errors';
import { cors } from '../../functions/shared/http/cors';
import { CORS_EXPOSED_HEADERS, parseCorsOrigins } from '../../functions/shared/http/cors-policy';
import { toAuthorizerContext } from '../../functions/shared/http/caller';
import { problemErrors } from '../../functions/shared/http/problem-errors';
import { runRoute } from '../../local/gateway/dispatch';
import type { LocalResponse } from '../../local/gateway/local-response';
import { matchRoute, type RouteMatch } from '../../local/gateway/route-matcher';
import { invoke, localRequest, type InvokeResponse } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * Every answer of every function carries the CORS headers for an allowed origin, success and
 * problem alike, and names no refused origin. The functions run with the tests' origin list, the
 * local default (dev servers on loopback, any port).
 */

const DEV_SERVER = 'http://localhost:5173';
const REFUSED = 'https://evil.example';

/** A raw gateway answer with header names in lower case, as {@link invoke} gives them. */
function lowerCased(raw: LocalResponse): Pick<InvokeResponse, 'headers'> {
  return { headers: Object.fromEntries(Object.entries(raw.headers).map(([name, value]) => [name.toLowerCase(), value])) };
}

function expectCorsFor(response: Pick<InvokeResponse, 'headers'>, origin: string): void {
  expect(response.headers['access-control-allow-origin']).toBe(origin);
  expect(response.headers.vary).toMatch(/\bOrigin\b/);
  const exposed = (response.headers['access-control-expose-headers'] ?? '').split(/,\s*/);
  expect(exposed).toEqual(expect.arrayContaining(['ETag', 'Retry-After', 'WWW-Authenticate']));
  expect(response.headers['access-control-allow-credentials']).toBeUndefined();
}

describe("a function's answers to an allowed origin", () => {
  it('a 200 names the origin and exposes ETag', async () => {
    const user = await createTestUser();
    const read = await invoke('getCurrentUser', { token: user.token, headers: { Origin: DEV_SERVER } });
    expect(read.status).toBe(200);
    expect(read.headers.etag).toBeDefined();
    expectCorsFor(read, DEV_SERVER);
  });

  it('a 412 problem of a stale If-Match carries them too', async () => {
    const user = await createTestUser();
    const stale = await invoke('updateCurrentUser', { token: user.token, body: { 'first-name': 'Late' }, headers: { Origin: DEV_SERVER, 'If-Match': '"99"' } });
    expect(stale.status).toBe(412);
    expectCorsFor(stale, DEV_SERVER);
  });

  it('a 401 the function gives (a guarded route reached without authorizer context) carries them too', async () => {
    const request = localRequest('getCurrentUser', { headers: { Origin: 'http://127.0.0.1:8080' } });
    const refused = await runRoute(request, matchRoute(request.method, request.path) as RouteMatch, null);
    expect(refused.statusCode).toBe(401);
    expectCorsFor(lowerCased(refused), 'http://127.0.0.1:8080');
  });

  it('a 404 problem of a user out of scope carries them too', async () => {
    const [user, other] = await Promise.all([createTestUser(), createTestUser()]);
    const missing = await invoke('getUser', { token: user.token, pathParameters: { 'user-id': other.record.id }, headers: { Origin: DEV_SERVER } });
    expect(missing.status).toBe(404);
    expectCorsFor(missing, DEV_SERVER);
  });

  it('a 500 the error middleware makes carries them too', async () => {
    const user = await createTestUser();
    const request = localRequest('getCurrentUser', { headers: { Origin: DEV_SERVER } });
    // Fault injection: DynamoDB cannot be made to fail with a bug-like error on demand.
    const spy = jest.spyOn(getDocumentClient(), 'send').mockRejectedValue(new TypeError('a bug') as never);
    try {
      const failed = await runRoute(request, matchRoute(request.method, request.path) as RouteMatch, { ...toAuthorizerContext(user.caller) });
      expect(failed.statusCode).toBe(500);
      expectCorsFor(lowerCased(failed), DEV_SERVER);
    } finally {
      spy.mockRestore();
    }
  });
});

describe("a function's answers to a refused origin", () => {
  it('name no origin and expose nothing; the answer is otherwise the one without Origin', async () => {
    const user = await createTestUser();
    const plain = await invoke('getCurrentUser', { token: user.token });
    const refused = await invoke('getCurrentUser', { token: user.token, headers: { Origin: REFUSED } });
    expect(refused.status).toBe(200);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.headers['access-control-expose-headers']).toBeUndefined();
    expect(refused.body).toEqual(plain.body);
    expect(Object.keys(refused.headers).sort()).toEqual(Object.keys(plain.headers).sort());
  });
});

describe('the CORS middleware under other origin lists', () => {
  const event = (origin?: string) => ({ httpMethod: 'GET', path: '/x', headers: origin === undefined ? {} : { origin } }) as unknown as APIGatewayProxyEvent;
  const run = (text: string, origin: string | undefined, outcome: 'ok' | 'fail' = 'ok') => {
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>(async () => {
      if (outcome === 'fail') throw new NotFoundError();
      return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    })
      .use(cors(parseCorsOrigins(text)))
      .use(problemErrors());
    return handler(event(origin), {} as Context);
  };

  it('answers * to any origin when * is configured', async () => {
    const answer = await run('*', 'https://anyone.example', 'fail');
    expect(answer.statusCode).toBe(404);
    expect(answer.headers).toMatchObject({ 'Access-Control-Allow-Origin': '*', Vary: 'Origin' });
  });

  it('with one origin, names it for that origin only', async () => {
    const allowed = await run('https://app.example.com', 'https://app.example.com');
    const refused = await run('https://app.example.com', 'https://admin.example.com');
    expect(allowed.headers?.['Access-Control-Allow-Origin']).toBe('https://app.example.com');
    expect(refused.headers?.['Access-Control-Allow-Origin']).toBeUndefined();
    expect(refused.headers?.Vary).toBe('Origin');
  });

  it('with several origins, names whichever asked', async () => {
    const list = 'https://app.example.com,https://admin.example.com';
    expect((await run(list, 'https://admin.example.com')).headers?.['Access-Control-Allow-Origin']).toBe('https://admin.example.com');
    expect((await run(list, 'https://app.example.com')).headers?.['Access-Control-Allow-Origin']).toBe('https://app.example.com');
  });

  it('leaves the answer untouched without a list', async () => {
    const answer = await run('', 'https://app.example.com');
    expect(answer.headers).toEqual({ 'content-type': 'application/json' });
  });
});

describe('the exposed headers', () => {
  it('cover every response header the OpenAPI document names', () => {
    const safelisted = new Set(['cache-control', 'content-language', 'content-length', 'content-type', 'expires', 'last-modified', 'pragma']);
    const exposed = new Set(CORS_EXPOSED_HEADERS.map((name) => name.toLowerCase()));
    const named = new Set<string>();
    for (const operations of Object.values(openApiDocument().paths as Record<string, Record<string, { responses?: Record<string, { headers?: object }> }>>)) {
      for (const operation of Object.values(operations)) {
        for (const response of Object.values(operation.responses ?? {})) {
          for (const name of Object.keys(response.headers ?? {})) named.add(name.toLowerCase());
        }
      }
    }
    expect(named.size).toBeGreaterThan(0);
    expect([...named].filter((name) => !exposed.has(name) && !safelisted.has(name))).toEqual([]);
  });
});
