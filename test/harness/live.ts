import WebSocket from 'ws';
import { LIVE_ENV } from '../../functions/live/live-config';
import type { LiveMessage } from '../../functions/live/model/live-messages';
import { LIVE_LIMITS } from '../../functions/live/model/live-limits';
import { handler as ingest } from '../../functions/media-log/feed/ingest-media-log';
import { resetServiceState } from '../../local/environment';
import { LocalStreamConsumers, streamConsumerDefinitions } from '../../local/fold/stream-consumers';
import { MemoryCheckpoints } from '../../local/fold/checkpoints';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { lambdaContext } from '../../local/gateway/lambda-context';
import { generateSqsEvent } from '../../local/invoke/sqs-event';
import { startLiveServer, type LiveServer } from '../../local/live/live-server';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import { testSigningKey } from './invoke';

/**
 * The live media log of a test file, as `npm start` runs it: the local gateway (POST /media/log/live),
 * the local WebSocket server with its @connections endpoint, and every stream consumer (the fold,
 * the notifier, the access keeper) polling the test database's streams, each batch an invocation
 * of the real handler. A
 * client is a real WebSocket over loopback.
 */

/** A WebSocket client of the tests, keeping what it received. */
export class LiveClient {
  public readonly messages: LiveMessage[] = [];
  public readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  public constructor(public readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as LiveMessage);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', (code: number, reason: Buffer) => resolve({ code, reason: reason.toString('utf8') })));
  }

  /** Send a message (objects as JSON, strings as they are). */
  public send(message: object | string): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message received (already, or within `timeoutMs`) that satisfies `wanted`, from the `from`th on. */
  public async next<M extends LiveMessage>(wanted: (message: LiveMessage) => message is M, timeoutMs?: number, from?: number): Promise<M>;
  public async next(wanted: (message: LiveMessage) => boolean, timeoutMs?: number, from?: number): Promise<LiveMessage>;
  public async next(wanted: (message: LiveMessage) => boolean, timeoutMs = 10_000, from = 0): Promise<LiveMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(wanted);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`No such message within ${timeoutMs} ms; received ${JSON.stringify(this.messages)}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  /** Subscribe and wait for the answer, `timeoutMs` at most. */
  public async subscribe(id: string, filter: object = {}, timeoutMs = 10_000): Promise<LiveMessage> {
    const from = this.messages.length;
    this.send({ action: 'subscribe', id, filter });
    return this.next((message) => (message.type === 'subscribed' || message.type === 'error') && message.id === id, timeoutMs, from);
  }

  public close(): void {
    this.socket.close();
  }
}

/** What a connection attempt came to: an open client, or the HTTP status that refused it. */
export type Connected = { readonly client: LiveClient } | { readonly refused: number };

/** A running live stack. */
export interface LiveStack {
  readonly gateway: LocalGateway;
  readonly server: LiveServer;
  /** POST /media/log/live with `token`: the answer's status and body. */
  ticket(token: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Connect to `url` from a page of `origin` (none: a client that is no browser). */
  connect(url: string, origin?: string): Promise<Connected>;
  /** A ticket for `token`, then a connection with it, from a dev server origin: the client. */
  open(token: string): Promise<LiveClient>;
  /** Hand the feed's consumer one SQS batch of `messages`, as `invoke ingestMediaLog` does. */
  feed(messages: readonly object[]): Promise<void>;
}

/** Connect to `url` from a page of `origin` (none: a client that is no browser); the caller closes the client. */
export function connectLive(url: string, origin?: string): Promise<Connected> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    socket.once('unexpected-response', (_request, response) => resolve({ refused: response.statusCode ?? 0 }));
    socket.once('open', () => resolve({ client: new LiveClient(socket) }));
    socket.once('error', () => undefined);
  });
}

/**
 * Wait until the subscriptions (and registry changes) made so far hold: the notifier reads the
 * registry once a second, so a change written a second after `subscribed` is pushed.
 */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, LIVE_LIMITS.subscriptionEffectMs + 300));
}

/** The origin of the tests' pages: a dev server on loopback, which the local default origins allow. */
export const PAGE_ORIGIN = 'http://localhost:5173';

/** Registers hooks that start the live stack before the file's tests and stop it after them. */
export function useLiveStack(options: { readonly idleSeconds?: number; readonly connectionSeconds?: number; readonly pollMs?: number } = {}): LiveStack {
  let gateway: LocalGateway | undefined;
  let server: LiveServer | undefined;
  let consumers: LocalStreamConsumers | undefined;
  const clients: LiveClient[] = [];
  beforeAll(async () => {
    await testSigningKey();
    server = await startLiveServer({ port: 0, accessLog: null, ...options });
    process.env[LIVE_ENV.websocketUrl] = server.url;
    process.env[LIVE_ENV.connectionsEndpoint] = server.connectionsEndpoint;
    resetServiceState();
    gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0);
    // One module graph at a time: jest's ESM loader fails two imports of one module under way at once.
    for (const definition of streamConsumerDefinitions()) await import(`../../${definition.handler}`);
    consumers = new LocalStreamConsumers(() => new MemoryCheckpoints());
    consumers.start((name, error) => process.stderr.write(`${name}: ${String(error)}\n`), options.pollMs ?? 100);
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await server?.close();
    await gateway?.close();
    await consumers?.stop();
  }, 60_000);
  const stack: LiveStack = {
    get gateway() {
      return gateway as LocalGateway;
    },
    get server() {
      return server as LiveServer;
    },
    async ticket(token, headers = {}) {
      const response = await fetch(`${(gateway as LocalGateway).baseUrl}${API_PREFIX}/media/log/live`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    },
    async connect(url, origin) {
      const connected = await connectLive(url, origin);
      if ('client' in connected) clients.push(connected.client);
      return connected;
    },
    async open(token) {
      const { status, body } = await stack.ticket(token);
      if (status !== 201) throw new Error(`POST /media/log/live answered ${status}: ${JSON.stringify(body)}`);
      const connected = await stack.connect(body.url, PAGE_ORIGIN);
      if (!('client' in connected)) throw new Error(`The connection was refused with ${connected.refused}.`);
      return connected.client;
    },
    async feed(messages) {
      const response = await ingest(generateSqsEvent(messages.map((message) => JSON.stringify(message)), 'MediaLogEvents'), lambdaContext('ingestMediaLog', 60_000));
      if (response.batchItemFailures.length > 0) throw new Error(`The feed refused ${JSON.stringify(response.batchItemFailures)}.`);
    },
  };
  return stack;
}
