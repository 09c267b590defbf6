import { createServer, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_STAGE, WEBSOCKET_QUOTAS } from '../../functions/live/model/live-limits';
import type { WebSocketEvent } from '../../functions/live/connections/websocket-event';
import { serveConnections, type EndpointConnection } from './connections-endpoint';
import { FrameSizeWatch } from './frame-limit';
import { liveAccessLogLine, type HandledEvent } from './live-access-log';
import { selectRoute } from './route-selection';
import { connectEvent, disconnectEvent, messageEvent, newConnectionId, type ConnectionFacts } from './websocket-events';
import { WebSocketRoutes } from './websocket-routes';

/**
 * The live media log's WebSocket API locally, on `ws` (CONTRIBUTING.md, "Dependencies" says why): the WebSocket at
 * `ws://127.0.0.1:<port>/live` and, on the same port, its `@connections` endpoint
 * (connections-endpoint.ts). It does what API Gateway does for a WebSocket API
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-overview.html):
 * runs `$connect` before the upgrade completes and refuses with its status, selects each message's
 * route by its `action` (route-selection.ts), sends a route's answer back when the route has a
 * route response, runs `$disconnect` however the connection ended, closes with 1009 a message over
 * 128 KB or a frame over 32 KB, and closes a connection idle for 10 minutes or open for 2 hours
 * (both shortened by tests). Every event is one invocation of the route's function, in-process.
 */

/** How the server runs. */
export interface LiveServerOptions {
  readonly port: number;
  readonly idleSeconds?: number;
  readonly connectionSeconds?: number;
  /** Where access log lines go; none when null. */
  readonly accessLog?: NodeJS.WritableStream | null;
  readonly routes?: WebSocketRoutes;
}

/** A running local WebSocket API. */
export interface LiveServer {
  /** `ws://127.0.0.1:<port>/live`: what tickets point to. */
  readonly url: string;
  /** `http://127.0.0.1:<port>/live`: the `@connections` endpoint of the SDK client. */
  readonly connectionsEndpoint: string;
  readonly server: Server;
  /** Connections open now. */
  openConnections(): number;
  /** Close every connection (each runs its `$disconnect`) and stop listening. */
  close(): Promise<void>;
}

/** Close code of API Gateway's own closes (idle, two hours, shutting down): "Going Away". */
const GOING_AWAY = 1001;
const LOOPBACK = '127.0.0.1';

/** One open connection. */
class OpenConnection implements EndpointConnection {
  public lastActiveAt: number;
  public closing = false;
  /** The connection's messages, one invocation after another, in the order they came. */
  public queue: Promise<void> = Promise.resolve();
  private readonly idle: NodeJS.Timeout;
  private readonly lifetime: NodeJS.Timeout;

  public constructor(
    public readonly facts: ConnectionFacts,
    private readonly socket: WebSocket,
    idleMs: number,
    lifetimeMs: number,
  ) {
    this.lastActiveAt = facts.connectedAt;
    this.idle = setTimeout(() => this.close(GOING_AWAY, 'Going away: idle'), idleMs);
    this.lifetime = setTimeout(() => this.close(GOING_AWAY, 'Going away: connection duration exceeded'), lifetimeMs);
  }

  public get connectedAt(): number {
    return this.facts.connectedAt;
  }

  public get sourceIp(): string {
    return this.facts.sourceIp;
  }

  public get userAgent(): string | undefined {
    return this.facts.userAgent;
  }

  /** A message in or out: the connection is not idle. */
  public touch(): void {
    this.lastActiveAt = Date.now();
    this.idle.refresh();
  }

  /** Send a message, in frames of at most 32 KB, as API Gateway does. */
  public send(data: Buffer): void {
    this.touch();
    for (let offset = 0; offset < data.length || offset === 0; offset += WEBSOCKET_QUOTAS.frameBytes) {
      const last = offset + WEBSOCKET_QUOTAS.frameBytes >= data.length;
      this.socket.send(data.subarray(offset, offset + WEBSOCKET_QUOTAS.frameBytes), { binary: false, fin: last });
      if (last) break;
    }
  }

  public close(code: number, reason: string): void {
    if (this.closing) return;
    this.closing = true;
    this.socket.close(code, reason);
  }

  public stopTimers(): void {
    clearTimeout(this.idle);
    clearTimeout(this.lifetime);
  }
}

function headerPairs(request: IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index < request.rawHeaders.length; index += 2) pairs.push([request.rawHeaders[index] as string, request.rawHeaders[index + 1] as string]);
  return pairs;
}

/** Refuse an upgrade with an HTTP status, as API Gateway answers a `$connect` that did not accept. */
function refuse(socket: Socket, status: number): void {
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** Start the local WebSocket API on 127.0.0.1. */
export async function startLiveServer(options: LiveServerOptions): Promise<LiveServer> {
  const routes = options.routes ?? new WebSocketRoutes();
  const idleMs = (options.idleSeconds ?? WEBSOCKET_QUOTAS.idleSeconds) * 1000;
  const lifetimeMs = (options.connectionSeconds ?? WEBSOCKET_QUOTAS.connectionSeconds) * 1000;
  const log = options.accessLog === undefined ? (process.env.POWERTOOLS_LOG_LEVEL?.toUpperCase() === 'SILENT' ? null : process.stderr) : options.accessLog;
  const connections = new Map<string, OpenConnection>();
  const disconnects = new Set<Promise<void>>();
  // ws closes a connection whose message exceeds maxPayload with 1009, as API Gateway does over 128 KB.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: WEBSOCKET_QUOTAS.messageBytes, perMessageDeflate: false });
  const written = (handled: HandledEvent) => log?.write(`${JSON.stringify(liveAccessLogLine(handled))}\n`);

  const server = createServer((request, response) => {
    serveConnections(request, response, connections)
      .then((served) => {
        if (!served) response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not Found' }));
      })
      .catch(() => {
        if (!response.headersSent) response.writeHead(500).end();
      });
  });

  const onMessage = async (connection: OpenConnection, data: Buffer, isBinary: boolean): Promise<void> => {
    if (connection.closing) return;
    connection.touch();
    const routeKey = selectRoute(data, isBinary, routes.routeKeys);
    const event = messageEvent(connection.facts, routeKey, data, isBinary);
    const outcome = await routes.invoke(routeKey, event);
    if ('result' in outcome) {
      if (routes.answersClient(routeKey) && outcome.result.body !== undefined && !connection.closing) connection.send(Buffer.from(outcome.result.body));
      written({ event, status: outcome.result.statusCode, integrationLatencyMs: outcome.latencyMs });
      return;
    }
    // What API Gateway sends a client whose route's integration failed.
    const { requestId } = event.requestContext;
    if (!connection.closing) connection.send(Buffer.from(JSON.stringify({ message: outcome.failure === 'timeout' ? 'Endpoint request timed out' : 'Internal server error', connectionId: connection.facts.connectionId, requestId })));
    written({ event, status: outcome.failure === 'timeout' ? 504 : 500, integrationLatencyMs: outcome.latencyMs, errorMessage: outcome.failure === 'timeout' ? 'Endpoint request timed out' : 'Internal server error' });
  };

  const onClose = (connection: OpenConnection, code: number, reason: string): void => {
    connection.stopTimers();
    connection.closing = true;
    connections.delete(connection.facts.connectionId);
    const event = disconnectEvent(connection.facts, code, reason);
    const done = routes.invoke('$disconnect', event).then((outcome) => {
      written({ event, status: 'result' in outcome ? outcome.result.statusCode : 500, integrationLatencyMs: outcome.latencyMs });
    });
    disconnects.add(done);
    void done.finally(() => disconnects.delete(done));
  };

  const accept = (socket: WebSocket, raw: Socket, facts: ConnectionFacts): void => {
    const connection = new OpenConnection(facts, socket, idleMs, lifetimeMs);
    connections.set(facts.connectionId, connection);
    const frames = new FrameSizeWatch(WEBSOCKET_QUOTAS.frameBytes);
    const tooBig = () => connection.close(WEBSOCKET_QUOTAS.tooBigCloseCode, 'Message too big');
    // Before ws reads them (ws puts the bytes that came with the upgrade back into the socket, so they pass here too).
    raw.prependListener('data', (chunk: Buffer) => {
      if (frames.push(chunk)) tooBig();
    });
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      connection.queue = connection.queue.then(() => onMessage(connection, data, isBinary)).catch(() => undefined);
    });
    socket.on('close', (code: number, reason: Buffer) => onClose(connection, code, reason.toString('utf8')));
    // A protocol error (a frame ws cannot read) ends in 'close' with its code; nothing to add.
    socket.on('error', () => undefined);
  };

  server.on('upgrade', (request: IncomingMessage, raw: Socket, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://local');
    if (url.pathname.replace(/\/$/, '') !== `/${LIVE_STAGE}`) {
      refuse(raw, 403);
      return;
    }
    const facts: ConnectionFacts = {
      connectionId: newConnectionId(),
      connectedAt: Date.now(),
      sourceIp: raw.remoteAddress?.replace(/^::ffff:/, '') ?? LOOPBACK,
      ...(request.headers['user-agent'] === undefined ? {} : { userAgent: request.headers['user-agent'] }),
      domainName: request.headers.host ?? LOOPBACK,
    };
    const event: WebSocketEvent = connectEvent(facts, { headers: headerPairs(request), rawQuery: url.search.slice(1) });
    void routes.invoke('$connect', event).then((outcome) => {
      const status = 'result' in outcome ? outcome.result.statusCode : outcome.failure === 'timeout' ? 504 : 500;
      written({ event, status, integrationLatencyMs: outcome.latencyMs });
      if (status < 200 || status > 299 || raw.destroyed) {
        refuse(raw, status >= 200 && status <= 299 ? 500 : status);
        return;
      }
      sockets.handleUpgrade(request, raw, head, (socket) => accept(socket, raw, facts));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, LOOPBACK, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://${LOOPBACK}:${port}/${LIVE_STAGE}`,
    connectionsEndpoint: `http://${LOOPBACK}:${port}/${LIVE_STAGE}`,
    server,
    openConnections: () => connections.size,
    close: async () => {
      for (const connection of connections.values()) connection.close(GOING_AWAY, 'Going away: the server stops');
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...disconnects]);
    },
  };
}
