import { parseCorsOrigins } from '../../functions/shared/http/cors-policy';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { gatewayAnswerCorsHeaders, preflightHeaders } from '../../local/gateway/cors';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { testSigningKey } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * What the local gateway answers by itself to a browser, as API Gateway does with the stack's
 * settings: the preflight of every resource, and CORS headers on its own error answers. The tests'
 * origin list is the local default: dev servers on loopback, any port.
 */

const PREFIX = '/frontend/api/v1';
const DEV_SERVER = 'http://localhost:5173';
const REFUSED = 'https://evil.example';
let gateway: LocalGateway;

beforeAll(async () => {
  await testSigningKey();
  gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0);
});

afterAll(async () => {
  await gateway.close();
});

function preflight(path: string, origin: string, method = 'PUT'): Promise<Response> {
  return fetch(`${gateway.baseUrl}${PREFIX}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization,content-type,if-match' },
  });
}

function corsHeadersOf(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

describe('a preflight to the local gateway', () => {
  it.each([
    ['/user/current', 'GET,PUT'],
    ['/user', 'GET'],
    ['/user/42', 'GET,PUT'],
    ['/user/42/avatar', 'POST'],
    ['/user/current/avatar', 'POST'],
    ['/user/current/avatar/0b7c4f4e-2a4a-4f0e-9a53-3c1f6e1d2b11', 'DELETE'],
    ['/media/log', 'GET'],
  ])('on %s is answered without a token: 204, the origin, the methods %s, the headers the API reads', async (path, methods) => {
    const response = await preflight(path, DEV_SERVER);
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({
      'access-control-allow-origin': DEV_SERVER,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': 'Authorization,Content-Type,If-Match,Idempotency-Key',
      'access-control-max-age': '3600',
    });
    expect(response.headers.get('vary')).toBe('Origin');
  });

  it('from a refused origin gets no CORS header at all', async () => {
    const response = await preflight('/user/current', REFUSED);
    expect(response.status).toBe(204);
    expect(corsHeadersOf(response)).toEqual({});
  });

  it('on a path that is no resource is the 404 problem', async () => {
    const response = await preflight('/nothing-here', DEV_SERVER);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});

describe("the local gateway's own answers to a browser", () => {
  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    return fetch(`${gateway.baseUrl}${PREFIX}${path}`, { ...init, headers: { Origin: DEV_SERVER, ...init.headers } });
  }

  function expectGatewayCors(response: Response): void {
    // Several origins are configured (two any-port hosts): a gateway response echoes the request's.
    expect(response.headers.get('access-control-allow-origin')).toBe(DEV_SERVER);
    expect(response.headers.get('access-control-expose-headers')).toBe('ETag, Retry-After, WWW-Authenticate');
    expect(response.headers.get('vary')).toBe('Origin');
  }

  it('401 without a token, with WWW-Authenticate readable', async () => {
    const response = await call('/user/current');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expectGatewayCors(response);
  });

  it('403 for a suspended user', async () => {
    const user = await createTestUser({ status: 'suspended' });
    const response = await call('/user/current', { headers: { Authorization: `Bearer ${user.token}` } });
    expect(response.status).toBe(403);
    expectGatewayCors(response);
  });

  it('404 for an unknown route', async () => {
    const response = await call('/nothing-here');
    expect(response.status).toBe(404);
    expectGatewayCors(response);
  });

  it('413 for a body over 10 MB', async () => {
    const response = await call('/user/current', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) });
    expect(response.status).toBe(413);
    expectGatewayCors(response);
  });
});

describe('the gateway rules under other origin lists', () => {
  const one = parseCorsOrigins('https://app.example.com');
  const any = parseCorsOrigins('*');

  it('with one origin, gateway answers name that origin, whoever asks', () => {
    expect(gatewayAnswerCorsHeaders('https://evil.example', one)['Access-Control-Allow-Origin']).toBe('https://app.example.com');
  });

  it('with *, gateway answers and preflights say *', () => {
    expect(gatewayAnswerCorsHeaders(undefined, any)['Access-Control-Allow-Origin']).toBe('*');
    expect(preflightHeaders(`${PREFIX}/user`, 'https://anyone.example', any)?.['Access-Control-Allow-Origin']).toBe('*');
  });

  it('with one origin, a preflight names it for that origin only', () => {
    expect(preflightHeaders(`${PREFIX}/user`, 'https://app.example.com', one)?.['Access-Control-Allow-Origin']).toBe('https://app.example.com');
    expect(preflightHeaders(`${PREFIX}/user`, 'https://evil.example', one)).toEqual({ Vary: 'Origin' });
  });

  it('without a list there is no preflight and no CORS header', () => {
    const none = parseCorsOrigins('');
    expect(preflightHeaders(`${PREFIX}/user`, DEV_SERVER, none)).toBeUndefined();
    expect(gatewayAnswerCorsHeaders(DEV_SERVER, none)).toEqual({});
  });

  it('a trailing slash or a doubled one is no resource', () => {
    expect(preflightHeaders(`${PREFIX}/user/`, DEV_SERVER, any)).toBeUndefined();
    expect(preflightHeaders(`${PREFIX}//user`, DEV_SERVER, any)).toBeUndefined();
  });
});
