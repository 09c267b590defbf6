import { jest } from '@jest/globals';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { dispatch } from '../../local/gateway/dispatch';
import type { LocalGateway } from '../../local/gateway/http-server';
import { localRequest } from '../harness/invoke';
import { startTestGateway } from '../harness/test-gateway';
import { createTestUser } from '../harness/users';

const PREFIX = '/frontend/api/v1';
let gateway: LocalGateway;
let authorizerCalls: () => number;

beforeAll(async () => {
  ({ gateway, authorizerCalls } = await startTestGateway());
});

afterAll(async () => {
  await gateway.close();
});

async function call(path: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  const response = await fetch(`${gateway.baseUrl}${PREFIX}${path}`, { ...init, headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe('the local gateway over HTTP', () => {
  it('serves the profile slice: read, update, read again', async () => {
    const user = await createTestUser({ 'first-name': 'Ada' });
    const read = await call('/user/current', { token: user.token });
    expect(read.status).toBe(200);
    expect(read.json['first-name']).toBe('Ada');
    expect(read.headers.get('etag')).toBe('"1"');
    expect(read.headers.get('x-content-type-options')).toBe('nosniff');
    expect(read.headers.get('strict-transport-security')).toMatch(/max-age=/);
    // Every header the function sends has a value: none is sent empty.
    expect([...read.headers].filter(([, value]) => value.trim() === '')).toEqual([]);
    const update = await call('/user/current', {
      token: user.token,
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': '"1"' },
      body: JSON.stringify({ 'last-name': 'Byron' }),
    });
    expect(update.status).toBe(200);
    expect(update.json['last-name']).toBe('Byron');
    expect((await call('/user/current', { token: user.token })).json['last-name']).toBe('Byron');
  });

  it('passes exactly the headers a function returns: none whose value is undefined', async () => {
    const user = await createTestUser();
    const read = await call('/user/current', { token: user.token });
    expect(read.status).toBe(200);
    expect(read.headers.has('server')).toBe(false);
    expect(read.headers.has('x-powered-by')).toBe(false);
    expect([...read.headers.values()]).not.toContain('undefined');
  });

  it('answers 401 problem with WWW-Authenticate without or with a bad token', async () => {
    for (const token of [undefined, 'x.y.z']) {
      const response = await call('/user/current', token === undefined ? {} : { token });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(response.json).toMatchObject({ status: 401, code: 'unauthorized' });
    }
  });

  it('answers 403 for a suspended user', async () => {
    const user = await createTestUser({ status: 'suspended' });
    const response = await call('/user/current', { token: user.token });
    expect(response.status).toBe(403);
    expect(response.json).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('answers 404 problem for an unknown route or method, not API Gateway\'s 403', async () => {
    for (const [method, path] of [['GET', '/nothing-here'], ['PATCH', '/user/current'], ['GET', '/user/current/']]) {
      const response = await call(path as string, { method });
      expect(response.status).toBe(404);
      expect(response.json).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('answers 413 for a body over 10 MB without reading it whole', async () => {
    const user = await createTestUser();
    const response = await call('/user/current', {
      token: user.token,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
    });
    expect(response.status).toBe(413);
    expect(response.json).toMatchObject({ status: 413, code: 'payload_too_large' });
  });

  it('caches the authorizer answer per token across routes, as API Gateway does', async () => {
    const user = await createTestUser();
    const before = authorizerCalls();
    await call('/user/current', { token: user.token });
    await call(`/user/${user.record.id}`, { token: user.token });
    await call('/user/current', { token: user.token });
    expect(authorizerCalls() - before).toBe(1);
  });
});

describe('the integration timeout', () => {
  it('answers 504 problem when a handler outlives it', async () => {
    const user = await createTestUser();
    const runner = new AuthorizerRunner(await loadAuthorizer(), 0);
    const client = getDocumentClient();
    const send = client.send.bind(client);
    // Fault injection: DynamoDB cannot be made slow on demand, so one read is delayed past the timeout.
    const spy = jest.spyOn(client, 'send').mockImplementation((async (command: never) => {
      if ((command as { constructor: { name: string } }).constructor.name === 'QueryCommand' && !(command as { input: { IndexName?: string } }).input.IndexName) {
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return send(command);
    }) as never);
    try {
      const response = await dispatch(localRequest('getCurrentUser', { token: user.token }), runner, 100);
      expect(response.statusCode).toBe(504);
      expect(JSON.parse(response.body.toString())).toMatchObject({ status: 504, code: 'gateway_timeout' });
    } finally {
      spy.mockRestore();
    }
  });
});
