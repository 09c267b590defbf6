import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import type { LocalGateway } from '../../local/gateway/http-server';
import { enableTelemetry, isMetricLine, LineCollector, useTelemetryCapture, type Line } from './telemetry-capture';

enableTelemetry();
const { getDocumentClient } = await import('../../functions/shared/aws/clients');
const { AuthorizerRunner, loadAuthorizer } = await import('../../local/gateway/authorizer-runner');
const { startGateway } = await import('../../local/gateway/http-server');
const { testSigningKey } = await import('../harness/invoke');
const { createTestUser } = await import('../harness/users');

/**
 * Every log line of a request through the local gateway carries the request's API Gateway request
 * id (`correlation_id`), its Lambda request id (`function_request_id`, one per invocation: the
 * authorizer's and the route's differ) and its route, and the gateway's access line names the
 * same request id; requests served at once never mix their ids. Real gateway, authorizer, handlers
 * and back-ends, over HTTP; the logger's and the gateway's lines are read back as written.
 */

const PREFIX = '/frontend/api/v1';
const ROUTE = `GET ${PREFIX}/user/current`;
const functionLines = useTelemetryCapture();
const accessLines = new LineCollector();
let gateway: LocalGateway;

beforeAll(async () => {
  await testSigningKey();
  // No authorizer cache: every request runs the authorizer, as a first request with a token does.
  gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0, { accessLog: accessLines });
});

afterAll(async () => {
  await gateway.close();
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.baseUrl}${PREFIX}${path}`, { headers });
  await response.arrayBuffer();
  return response;
}

/** The lines of one request: the functions' (by correlation id) and the access line (by request id). */
function linesOf(requestId: string, logs: readonly Line[], access: readonly Line[]) {
  return { logs: logs.filter((line) => line.correlation_id === requestId), access: access.filter((line) => line.requestId === requestId) };
}

describe('one request through the local gateway', () => {
  it('gives the authorizer, the handler and the access line one request id, and each invocation its own Lambda request id', async () => {
    const user = await createTestUser();

    const response = await get('/user/current', { authorization: `Bearer ${user.token}` });

    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-amzn-requestid') as string;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get('x-amz-apigw-id')).toBe(requestId);
    const { logs, access } = linesOf(requestId, functionLines.take(), accessLines.take());
    const authorizerLine = logs.find((line) => line.function_name === 'authorizer');
    const handlerLine = logs.find((line) => line.function_name === 'getCurrentUser');
    expect(authorizerLine).toMatchObject({ message: 'Token accepted', userId: user.record.id, route: ROUTE, level: 'INFO' });
    expect(handlerLine).toMatchObject({ message: 'Request', status: 200, route: ROUTE, service: 'frontend-api' });
    expect(authorizerLine?.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(handlerLine?.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(handlerLine?.function_request_id).not.toBe(authorizerLine?.function_request_id);
    expect(access).toEqual([expect.objectContaining({ requestId, status: '200', method: 'GET', resource: `${PREFIX}/user/current`, userId: String(user.record.id) })]);
  });

  it('carries the ids on the error line of a 5xx', async () => {
    const user = await createTestUser();
    const client = getDocumentClient();
    const send = client.send.bind(client);
    // Fault injection: DynamoDB Local cannot be made to fail one read on demand. The authorizer's
    // subject lookup (a Query) passes; the route's profile read (a GetItem) fails.
    const spy = jest.spyOn(client, 'send').mockImplementation((async (command: never) => {
      if ((command as { constructor: { name: string } }).constructor.name === 'GetCommand') throw new Error('injected read failure');
      return send(command);
    }) as never);
    let response: Response;
    try {
      response = await get('/user/current', { authorization: `Bearer ${user.token}` });
    } finally {
      spy.mockRestore();
    }

    expect(response.status).toBe(500);
    const requestId = response.headers.get('x-amzn-requestid') as string;
    const { logs, access } = linesOf(requestId, functionLines.take(), accessLines.take());
    const errorLine = logs.find((line) => line.level === 'ERROR');
    expect(errorLine).toMatchObject({ message: 'Request failed', code: 'internal_error', route: ROUTE, function_name: 'getCurrentUser' });
    expect(errorLine?.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(errorLine?.error).toMatchObject({ message: 'injected read failure' });
    expect(access).toEqual([expect.objectContaining({ requestId, status: '500' })]);
  });

  it("takes the client's X-Amzn-RequestId when it is a UUID, as API Gateway does, and makes one otherwise", async () => {
    const chosen = randomUUID();
    const kept = await get('/user/current', { 'x-amzn-requestid': chosen });
    const replaced = await get('/user/current', { 'x-amzn-requestid': 'not-a-uuid' });

    expect(kept.headers.get('x-amzn-requestid')).toBe(chosen);
    expect(replaced.headers.get('x-amzn-requestid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.headers.get('x-amzn-requestid')).not.toBe('not-a-uuid');
    expect(accessLines.take().map((line) => line.requestId)).toEqual([chosen, replaced.headers.get('x-amzn-requestid')]);
  });

  it('writes no metric line by default locally', async () => {
    const user = await createTestUser();
    await get('/user/current', { authorization: `Bearer ${user.token}` });
    expect(functionLines.take().filter(isMetricLine)).toEqual([]);
  });
});

describe('requests served at once', () => {
  it('never carry each other\'s ids or callers', async () => {
    const users = await Promise.all(Array.from({ length: 8 }, () => createTestUser()));

    const responses = await Promise.all(users.map((user) => get('/user/current', { authorization: `Bearer ${user.token}` })));

    const logs = functionLines.take();
    const access = accessLines.take();
    const lambdaRequestIds = new Set<string>();
    for (const [index, response] of responses.entries()) {
      expect(response.status).toBe(200);
      const requestId = response.headers.get('x-amzn-requestid') as string;
      const lines = linesOf(requestId, logs, access);
      const authorizerLines = lines.logs.filter((line) => line.function_name === 'authorizer');
      const handlerLines = lines.logs.filter((line) => line.function_name === 'getCurrentUser');
      expect(authorizerLines).toEqual([expect.objectContaining({ message: 'Token accepted', userId: users[index]?.record.id })]);
      expect(handlerLines).toEqual([expect.objectContaining({ message: 'Request', status: 200 })]);
      expect(lines.access).toEqual([expect.objectContaining({ userId: String(users[index]?.record.id) })]);
      for (const line of [...authorizerLines, ...handlerLines]) lambdaRequestIds.add(line.function_request_id);
    }
    // Two invocations per request, each with its own Lambda request id.
    expect(lambdaRequestIds.size).toBe(users.length * 2);
    // No line of a function lacks the ids.
    expect(logs.filter((line) => !isMetricLine(line) && (line.correlation_id === undefined || line.function_request_id === undefined))).toEqual([]);
  });
});
