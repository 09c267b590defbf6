import { jest } from '@jest/globals';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { ACCESS_LOG_FIELDS } from '../../functions/shared/observability/access-log-fields';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { testSigningKey } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { LineCollector, type Line } from './telemetry-capture';

/**
 * The local gateway's access log over HTTP: one line per request, in the member set of the stage's
 * access log format, for the functions' answers and for every answer the gateway gives by itself
 * (401, 403, 404, 413, 504), with the request id the client got in x-amzn-RequestId. The local
 * gateway does not throttle, so it never answers 429 by itself.
 */

const PREFIX = '/frontend/api/v1';
const TIMEOUT_MS = 200;
const access = new LineCollector();
let gateway: LocalGateway;
let denying: LocalGateway;
let hurried: LocalGateway;
let user: TestUser;

beforeAll(async () => {
  await testSigningKey();
  user = await createTestUser();
  const authorizer = await loadAuthorizer();
  gateway = await startGateway(new AuthorizerRunner(authorizer, 0), 0, { accessLog: access });
  // Only the 504 case gets the short integration timeout: a first call that loads the route's
  // module on a busy machine can take longer than 200 ms, and must not turn into a 504 elsewhere.
  hurried = await startGateway(new AuthorizerRunner(authorizer, 0), 0, { accessLog: access, timeoutMs: TIMEOUT_MS });
  // The real authorizer never denies (a suspended user gets the route's 403): a stand-in that
  // answers a Deny policy is the only way to make the gateway answer its own 403.
  const deny = async (): Promise<APIGatewayAuthorizerResult> => ({
    principalId: 'someone',
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: '*' }] },
  });
  denying = await startGateway(new AuthorizerRunner(deny, 0), 0, { accessLog: access });
});

beforeEach(() => {
  access.take();
});

afterAll(async () => {
  await Promise.all([gateway.close(), denying.close(), hurried.close()]);
});

async function call(target: LocalGateway, path: string, init: RequestInit = {}) {
  const response = await fetch(`${target.baseUrl}${PREFIX}${path}`, init);
  const body = Buffer.from(await response.arrayBuffer());
  return { status: response.status, requestId: response.headers.get('x-amzn-requestid'), length: body.byteLength };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The one access line written for a request, checked against the format's members. */
function onlyLine(): Line {
  const lines = access.take();
  expect(lines).toHaveLength(1);
  const line = lines[0] as Line;
  expect(Object.keys(line)).toEqual(Object.keys(ACCESS_LOG_FIELDS));
  for (const value of Object.values(line)) expect(typeof value).toBe('string');
  return line;
}

describe('the access line', () => {
  it("of a function's answer: ids, method, path, resource, status, latencies, length, caller", async () => {
    const answer = await call(gateway, '/user/current', { headers: bearer(user.token) });

    expect(answer.status).toBe(200);
    const line = onlyLine();
    expect(line).toMatchObject({
      requestId: answer.requestId,
      extendedRequestId: answer.requestId,
      method: 'GET',
      path: `/local${PREFIX}/user/current`,
      resource: `${PREFIX}/user/current`,
      status: '200',
      responseLength: String(answer.length),
      sourceIp: '127.0.0.1',
      userId: String(user.record.id),
      authorizerError: '-',
      errorType: '-',
      errorMessage: '-',
    });
    expect(line.time).toMatch(/^\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/);
    expect(Number(line.latencyMs)).toBeGreaterThanOrEqual(Number(line.integrationLatencyMs));
    expect(Number(line.integrationLatencyMs)).toBeGreaterThanOrEqual(0);
  });

  it.each([
    ['no token', {}],
    ['a refused token', bearer('x.y.z')],
  ])('of the gateway\'s 401 for %s', async (_title, headers) => {
    const answer = await call(gateway, '/user/current', { headers });

    expect(answer.status).toBe(401);
    expect(onlyLine()).toMatchObject({
      requestId: answer.requestId,
      status: '401',
      resource: `${PREFIX}/user/current`,
      errorType: 'UNAUTHORIZED',
      errorMessage: 'Unauthorized',
      authorizerError: 'Unauthorized',
      integrationLatencyMs: '-',
      userId: '-',
    });
  });

  it("of the gateway's 403 for an authorizer's Deny", async () => {
    const answer = await call(denying, '/user/current', { headers: bearer(user.token) });

    expect(answer.status).toBe(403);
    expect(onlyLine()).toMatchObject({ requestId: answer.requestId, status: '403', errorType: 'ACCESS_DENIED', integrationLatencyMs: '-' });
  });

  it("of a route's own 403 (a suspended caller): no gateway error", async () => {
    const suspended = await createTestUser({ status: 'suspended' });
    const answer = await call(gateway, '/user/current', { headers: bearer(suspended.token) });

    expect(answer.status).toBe(403);
    expect(onlyLine()).toMatchObject({ requestId: answer.requestId, status: '403', errorType: '-', userId: String(suspended.record.id) });
  });

  it("of the gateway's 404 for an unknown route: the path, no resource", async () => {
    const answer = await call(gateway, '/no/such/route');

    expect(answer.status).toBe(404);
    expect(onlyLine()).toMatchObject({
      requestId: answer.requestId,
      status: '404',
      path: `/local${PREFIX}/no/such/route`,
      resource: '-',
      errorType: 'MISSING_AUTHENTICATION_TOKEN',
      errorMessage: 'Missing Authentication Token',
    });
  });

  it("of the gateway's 413 for a body over 10 MB, refused unread", async () => {
    const answer = await call(gateway, '/user/current', {
      method: 'PUT',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
    });

    expect(answer.status).toBe(413);
    expect(onlyLine()).toMatchObject({ requestId: answer.requestId, status: '413', method: 'PUT', errorType: 'REQUEST_TOO_LARGE', integrationLatencyMs: '-' });
  });

  it("of the gateway's 504 when the function outlives the integration timeout", async () => {
    const client = getDocumentClient();
    const send = client.send.bind(client);
    // Fault injection: DynamoDB Local cannot be made slow on demand; the route's profile read waits.
    const spy = jest.spyOn(client, 'send').mockImplementation((async (command: never) => {
      if ((command as { constructor: { name: string } }).constructor.name === 'GetCommand') await new Promise((resolve) => setTimeout(resolve, TIMEOUT_MS * 2));
      return send(command);
    }) as never);
    let answer: Awaited<ReturnType<typeof call>>;
    try {
      answer = await call(hurried, '/user/current', { headers: bearer(user.token) });
    } finally {
      spy.mockRestore();
    }

    expect(answer.status).toBe(504);
    const line = onlyLine();
    expect(line).toMatchObject({ requestId: answer.requestId, status: '504', errorType: 'INTEGRATION_TIMEOUT', errorMessage: 'Endpoint request timed out' });
    expect(Number(line.integrationLatencyMs)).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
  });

  it('of a CORS preflight the gateway answers itself', async () => {
    const answer = await call(gateway, '/user/current', {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    });

    expect(answer.status).toBe(204);
    expect(onlyLine()).toMatchObject({ requestId: answer.requestId, status: '204', method: 'OPTIONS' });
  });
});
