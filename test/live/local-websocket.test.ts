import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, GoneException, PayloadTooLargeException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import WebSocket from 'ws';
import type { WebSocketRouteDefinition } from '../../functions/shared/deployment/function-definitions';
import { clientOptions } from '../../functions/shared/aws/clients';
import { WEBSOCKET_QUOTAS } from '../../functions/live/model/live-limits';
import { startLiveServer, type LiveServer } from '../../local/live/live-server';
import { WebSocketRoutes } from '../../local/live/websocket-routes';
import { recorded } from './fixtures/recording-route';

/**
 * The local WebSocket API against what AWS documents of API Gateway's: the events a route's Lambda
 * proxy integration gets (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-integration-requests.html),
 * route selection by `action`, route responses, the idle and connection limits (shortened here),
 * and the `@connections` API, through the AWS SDK's own client.
 */

const route = (routeKey: string, answersClient: boolean): WebSocketRouteDefinition => ({
  name: `recording${routeKey}`,
  handler: 'test/live/fixtures/recording-route.ts',
  description: 'records its events',
  routeKey,
  answersClient,
  grants: {},
});
const routes = new WebSocketRoutes([route('$connect', false), route('$disconnect', false), route('$default', true), route('subscribe', true), route('quiet', false)]);

let server: LiveServer;
let sdk: ApiGatewayManagementApiClient;

beforeAll(async () => {
  server = await startLiveServer({ port: 0, accessLog: null, routes, idleSeconds: 2, connectionSeconds: 4 });
  sdk = new ApiGatewayManagementApiClient(clientOptions({ region: 'us-east-1', endpoint: server.connectionsEndpoint }));
});
afterAll(async () => {
  sdk.destroy();
  await server.close();
});

interface Opened {
  readonly socket: WebSocket;
  readonly connectionId: string;
  readonly received: string[];
  readonly closed: Promise<{ code: number; reason: string }>;
}

async function open(query = ''): Promise<Opened> {
  const socket = new WebSocket(`${server.url}${query}`, { origin: 'http://localhost:5173' });
  const received: string[] = [];
  socket.on('message', (data: Buffer) => received.push(data.toString('utf8')));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString() })));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused ${response.statusCode}`)));
  });
  const connect = recorded.findLast((event) => event.requestContext.eventType === 'CONNECT');
  return { socket, connectionId: connect?.requestContext.connectionId as string, received, closed };
}

const until = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('Not within the time given.');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('the events', () => {
  it('of $connect carry the upgrade request\'s headers and query, and the connection\'s context', async () => {
    const { connectionId } = await open('?ticket=abc&x=1&x=2');
    const event = recorded.findLast((candidate) => candidate.requestContext.eventType === 'CONNECT');

    expect(event).toMatchObject({
      headers: expect.objectContaining({ Origin: 'http://localhost:5173', 'Sec-WebSocket-Version': '13' }),
      multiValueHeaders: expect.objectContaining({ Origin: ['http://localhost:5173'] }),
      queryStringParameters: { ticket: 'abc', x: '2' },
      multiValueQueryStringParameters: { ticket: ['abc'], x: ['1', '2'] },
      isBase64Encoded: false,
      requestContext: {
        routeKey: '$connect',
        eventType: 'CONNECT',
        messageDirection: 'IN',
        stage: 'live',
        connectionId,
        domainName: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
        apiId: expect.any(String),
        requestId: expect.any(String),
        extendedRequestId: expect.any(String),
        requestTime: expect.stringMatching(/^\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000$/),
        requestTimeEpoch: expect.any(Number),
        connectedAt: expect.any(Number),
        messageId: null,
        identity: { sourceIp: '127.0.0.1', userAgent: null },
      },
    });
    expect(connectionId).toMatch(/^[A-Za-z0-9_-]{15}=$/);
  });

  it('of a message carry its body and id, the route its action selects, and answer the client where the route responds', async () => {
    const { socket, connectionId, received } = await open();
    socket.send(JSON.stringify({ action: 'subscribe', id: 'a' }));
    socket.send('plain text');
    socket.send(JSON.stringify({ action: 'nothing-routes-this' }));
    socket.send(JSON.stringify({ action: '$connect' }));
    socket.send(JSON.stringify({ action: 'quiet' }));
    socket.send(Buffer.from([1, 2, 3]));
    await until(() => recorded.filter((event) => event.requestContext.connectionId === connectionId && event.requestContext.eventType === 'MESSAGE').length === 6);

    const messages = recorded.filter((event) => event.requestContext.connectionId === connectionId && event.requestContext.eventType === 'MESSAGE');
    expect(messages.map((event) => event.requestContext.routeKey)).toEqual(['subscribe', '$default', '$default', '$default', 'quiet', '$default']);
    expect(messages[0]).toMatchObject({ body: '{"action":"subscribe","id":"a"}', isBase64Encoded: false, requestContext: { messageId: expect.any(String), connectionId } });
    expect(messages[5]).toMatchObject({ body: Buffer.from([1, 2, 3]).toString('base64'), isBase64Encoded: true });
    await until(() => received.length === 5);
    expect(received.map((text) => JSON.parse(text).routeKey)).toEqual(['subscribe', '$default', '$default', '$default', '$default']);
  });

  it('of $disconnect carry the close code and reason', async () => {
    const { socket, connectionId } = await open();
    socket.close(4001, 'bye');
    await until(() => recorded.some((event) => event.requestContext.connectionId === connectionId && event.requestContext.eventType === 'DISCONNECT'));
    const event = recorded.find((candidate) => candidate.requestContext.connectionId === connectionId && candidate.requestContext.eventType === 'DISCONNECT');
    expect(event?.requestContext).toMatchObject({ routeKey: '$disconnect', disconnectStatusCode: 4001, disconnectReason: 'bye' });
  });
});

describe('the gateway', () => {
  it('refuses a connection with the status $connect answered', async () => {
    await expect(open('?refuse=401')).rejects.toThrow('refused 401');
    await expect(open('?refuse=429')).rejects.toThrow('refused 429');
  });

  it('answers a message whose route failed as API Gateway does, and keeps the connection', async () => {
    const { socket, received, connectionId } = await open();
    socket.send(JSON.stringify({ action: 'subscribe', id: 'fail' }));
    await until(() => received.length === 1);
    expect(JSON.parse(received[0] as string)).toEqual({ message: 'Internal server error', connectionId, requestId: expect.any(String) });
    expect(socket.readyState).toBe(WebSocket.OPEN);
  });

  it('closes a connection idle for the idle limit, and any connection at the connection limit, with 1001', async () => {
    const idle = await open();
    const busy = await open();
    const keepBusy = setInterval(() => busy.socket.send('{"action":"quiet"}'), 500);
    const started = Date.now();
    try {
      expect((await idle.closed).code).toBe(1001);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
      expect((await busy.closed).code).toBe(1001);
      expect(Date.now() - started).toBeGreaterThanOrEqual(3900);
    } finally {
      clearInterval(keepBusy);
    }
  }, 15_000);

  it(`closes with 1009 a message over ${WEBSOCKET_QUOTAS.messageBytes / 1024} KB sent in frames of 32 KB`, async () => {
    const { socket, closed } = await open();
    const chunk = Buffer.alloc(WEBSOCKET_QUOTAS.frameBytes, 'a');
    for (let sent = 0; sent <= WEBSOCKET_QUOTAS.messageBytes; sent += chunk.length) socket.send(chunk, { fin: false });
    expect((await closed).code).toBe(1009);
  });
});

describe('the @connections API, through the AWS SDK', () => {
  it('sends a message to a connection (in frames of at most 32 KB), describes it, and closes it', async () => {
    const { connectionId, received, closed } = await open();
    const big = 'b'.repeat(WEBSOCKET_QUOTAS.frameBytes * 2 + 10);
    await sdk.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from('hello') }));
    await sdk.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(big) }));
    await until(() => received.length === 2);
    expect(received).toEqual(['hello', big]);

    const described = await sdk.send(new GetConnectionCommand({ ConnectionId: connectionId }));
    expect(described).toMatchObject({ ConnectedAt: expect.any(Date), LastActiveAt: expect.any(Date), Identity: { SourceIp: '127.0.0.1' } });

    await sdk.send(new DeleteConnectionCommand({ ConnectionId: connectionId }));
    expect((await closed).code).toBe(1000);
    await until(() => recorded.some((event) => event.requestContext.connectionId === connectionId && event.requestContext.eventType === 'DISCONNECT'));
  });

  it('answers GoneException for a connection that is not open', async () => {
    await expect(sdk.send(new PostToConnectionCommand({ ConnectionId: 'AAAAAAAAAAAAAAA=', Data: Buffer.from('x') }))).rejects.toBeInstanceOf(GoneException);
    await expect(sdk.send(new DeleteConnectionCommand({ ConnectionId: 'AAAAAAAAAAAAAAA=' }))).rejects.toBeInstanceOf(GoneException);
  });

  it(`answers PayloadTooLargeException for a message over ${WEBSOCKET_QUOTAS.messageBytes / 1024} KB`, async () => {
    const { connectionId } = await open();
    await expect(sdk.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.alloc(WEBSOCKET_QUOTAS.messageBytes + 1) }))).rejects.toBeInstanceOf(PayloadTooLargeException);
  });

  it('refuses an unsigned request with 403', async () => {
    const response = await fetch(`${server.connectionsEndpoint}/@connections/AAAAAAAAAAAAAAA=`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
  });
});
