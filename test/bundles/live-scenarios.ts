import { randomUUID } from 'node:crypto';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { closeExpiredLiveConnectionsFunction, reviseLiveAccessFunction } from '../../functions/live/access/access-functions';
import type { WebSocketEvent, WebSocketResult } from '../../functions/live/connections/websocket-event';
import { webSocketRoutes } from '../../functions/live/connections/websocket-routes';
import { LIVE_ENV } from '../../functions/live/live-config';
import { liveRegistry, liveTicketStore } from '../../functions/live/live-composition';
import type { LiveMessage } from '../../functions/live/model/live-messages';
import { ticketHash, TICKET_PARAMETER } from '../../functions/live/ticket/tickets';
import { CORS_ORIGINS_ENV } from '../../functions/shared/http/cors-policy';
import { MemoryCheckpoints } from '../../local/fold/checkpoints';
import { LocalStreamConsumer } from '../../local/fold/stream-consumer';
import { LOCAL_CORS_ORIGINS } from '../../local/gateway/cors-local-origins';
import { buildAuthorizerEvent } from '../../local/gateway/proxy-event';
import { generateStreamEvent } from '../../local/invoke/stream-event';
import type { BundleInvocation } from '../../local/lambda/lambda-process';
import { startLiveServer, type LiveServer } from '../../local/live/live-server';
import { WebSocketRoutes, type RouteOutcome } from '../../local/live/websocket-routes';
import { scheduledEvent } from '../../local/schedule/local-scheduler';
import { userAccounts } from '../../local/tool-composition';
import { tokenFor } from '../harness/invoke';
import { connectLive, PAGE_ORIGIN, type LiveClient } from '../harness/live';
import { createTestUser, type TestUser } from '../harness/users';
import { entryWriter, proxyEvent, resultOf, routeAnswer } from './deployed-bundles-harness';

/**
 * The live media log's functions run from their bundles. The local WebSocket API (local/live/)
 * stands in front as API Gateway does, its routes invoking the route bundles instead of the
 * handlers in-process: a real WebSocket client on loopback connects through the `$connect` bundle
 * and talks to the message routes' bundles, and what the notifier's, the access keeper's and the
 * sweep's bundles post or close through the server's `@connections` endpoint reaches that client.
 */

/** Runs a deployed function's bundle once on `event`, with the file's configuration and {@link LiveBundles.configuration}. */
export type BundleRunner = (name: string, event: unknown) => Promise<BundleInvocation>;

/** A route bundle's invocation as the local server expects a route's outcome; what failed is kept to be shown. */
class BundledRoutes extends WebSocketRoutes {
  public readonly failures: string[] = [];

  public constructor(private readonly run: BundleRunner) {
    super();
  }

  public override async invoke(routeKey: string, event: WebSocketEvent): Promise<RouteOutcome> {
    const route = webSocketRoutes.find((candidate) => candidate.routeKey === routeKey);
    if (route === undefined) return { failure: 'error', error: new Error(`No route ${routeKey}.`), latencyMs: 0 };
    const started = performance.now();
    const invocation = await this.run(route.name, event);
    const latencyMs = performance.now() - started;
    try {
      return { result: resultOf(invocation) as WebSocketResult, latencyMs };
    } catch (error) {
      this.failures.push(`${route.name}: ${String(error)}`);
      return { failure: 'error', error, latencyMs };
    }
  }
}

/** What a file's hooks set up; usable once its `beforeAll` has run. */
export interface LiveBundles {
  /** The variables the stack gives every function about the WebSocket API (and the browser origins), pointing at this file's server. */
  configuration(): Record<string, string>;
  /** The scenario of each live function. */
  readonly scenarios: Readonly<Record<string, () => Promise<void>>>;
}

/** Wait until `done` holds, checking every 100 ms for at most 10 s. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Not within 10 s: ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How `client`'s connection was closed, within 10 s. */
async function closeOf(client: LiveClient): Promise<{ code: number; reason: string }> {
  await until(async () => client.socket.readyState === client.socket.CLOSED, 'the connection closes');
  return client.closed;
}

/** The ids of the connections registered for `user`. */
async function connectionIdsOf(user: TestUser): Promise<string[]> {
  return Object.keys((await liveRegistry().userConnections(user.record.id))?.connections ?? {});
}

/** Whether a message is of `type`. */
const ofType = (type: LiveMessage['type']) => (message: LiveMessage) => message.type === type;

/**
 * Registers hooks that start the file's local WebSocket API on a free port, its routes run by
 * `run`, before the file's tests and close it after them. Call it before the bundles' own hooks,
 * so that the connections still open close (each through the `$disconnect` bundle) while the
 * bundles are there.
 */
export function useLiveBundles(run: BundleRunner): LiveBundles {
  const routes = new BundledRoutes(run);
  let live: LiveServer | undefined;
  beforeAll(async () => {
    live = await startLiveServer({ port: 0, accessLog: null, routes });
  });
  afterAll(async () => {
    await live?.close();
  }, 60_000);
  const server = (): LiveServer => {
    if (live === undefined) throw new Error('The live server starts in beforeAll.');
    return live;
  };

  /** POST /media/log/live with `token`, as API Gateway runs it: the authorizer's bundle, then the route's with its context. */
  async function ticket(token: string) {
    const event = await proxyEvent('createLiveTicket', { token });
    const allowed = resultOf(await run('authorizer', buildAuthorizerEvent(event))) as APIGatewayAuthorizerResult;
    const authorizer = { ...allowed.context, principalId: allowed.principalId };
    return routeAnswer('createLiveTicket', await run('createLiveTicket', { ...event, requestContext: { ...event.requestContext, authorizer } }));
  }

  /** A client of `user` (with a token of `tokenSeconds` when given) connected from a page, and its registered connection's id. */
  async function open(user: TestUser, tokenSeconds?: number): Promise<{ client: LiveClient; connectionId: string }> {
    const { status, body } = await ticket(tokenSeconds === undefined ? user.token : await tokenFor(user.record.subject, tokenSeconds));
    if (status !== 201) throw new Error(`POST /media/log/live answered ${status}: ${JSON.stringify(body)}`);
    const connected = await connectLive(body.url, PAGE_ORIGIN);
    if (!('client' in connected)) throw new Error(`$connect refused with ${connected.refused}; failed bundles: ${routes.failures.join('\n') || 'none'}`);
    const [connectionId, ...others] = await connectionIdsOf(user);
    if (connectionId === undefined || others.length > 0) throw new Error(`A fresh user has one connection; registered: ${JSON.stringify([connectionId, ...others])}.`);
    return { client: connected.client, connectionId };
  }

  const scenarios: Record<string, () => Promise<void>> = {
    createLiveTicket: async () => {
      const user = await createTestUser();
      const { status, body } = await ticket(user.token);
      expect(status).toBe(201);
      const url = new URL(body.url);
      expect(`${url.protocol}//${url.host}${url.pathname}`).toBe(server().url);
      // The table keeps the ticket's hash, bound to the caller.
      const stored = await liveTicketStore().take(ticketHash(url.searchParams.get(TICKET_PARAMETER) ?? ''), Math.floor(Date.now() / 1000));
      expect(stored?.userId).toBe(user.record.id);
    },
    liveConnect: async () => {
      const user = await createTestUser();
      const { url } = (await ticket(user.token)).body;
      expect(await connectLive(url, 'https://evil.example')).toEqual({ refused: 403 });
      const connected = await connectLive(url, PAGE_ORIGIN);
      expect(Object.keys(connected)).toEqual(['client']);
      expect(await connectLive(url, PAGE_ORIGIN)).toEqual({ refused: 401 });
      const [connectionId] = await connectionIdsOf(user);
      expect(await liveRegistry().connection(connectionId ?? '')).toMatchObject({ caller: user.caller, subscriptions: {} });
    },
    liveSubscribe: async () => {
      const { client, connectionId } = await open(await createTestUser());
      expect(await client.subscribe('errors', { status: ['error'] })).toEqual({ type: 'subscribed', id: 'errors' });
      expect(Object.keys((await liveRegistry().connection(connectionId))?.subscriptions ?? {})).toEqual(['errors']);
    },
    liveUnsubscribe: async () => {
      const { client, connectionId } = await open(await createTestUser());
      await client.subscribe('all');
      const from = client.messages.length;
      client.send({ action: 'unsubscribe', id: 'all' });
      expect(await client.next(ofType('unsubscribed'), 10_000, from)).toEqual({ type: 'unsubscribed', id: 'all' });
      expect((await liveRegistry().connection(connectionId))?.subscriptions).toEqual({});
    },
    liveDefault: async () => {
      const { client } = await open(await createTestUser());
      client.send('not json');
      expect(await client.next(ofType('error'))).toMatchObject({ type: 'error', status: 400, code: 'malformed_body' });
      expect(client.socket.readyState).toBe(client.socket.OPEN);
    },
    liveDisconnect: async () => {
      const user = await createTestUser();
      const { client, connectionId } = await open(user);
      client.close();
      await closeOf(client);
      await until(async () => (await liveRegistry().connection(connectionId)) === undefined, 'the connection leaves the registry');
      expect(await connectionIdsOf(user)).toEqual([]);
    },
    notifyMediaLogWatchers: async () => {
      const user = await createTestUser();
      const { client } = await open(user);
      await client.subscribe('mine');
      const entry = { id: randomUUID(), send: '2026-05-08T07:08:09.000Z', status: 'pending', 'status-ffscan': 'pending', 'status-mediainfo': 'pending', 'status-scan-report': 'pending', url: 'https://media.example.com/live.mp4', 'user-id': user.record.id } as const;
      await entryWriter().write(entry);
      // The stream's last change, as the notifier's event source mapping delivers it.
      expect(resultOf(await run('notifyMediaLogWatchers', await generateStreamEvent(1)))).toEqual({ state: {}, batchItemFailures: [] });
      expect(await client.next(ofType('entry'))).toEqual({ type: 'entry', subscription: 'mine', entry, matches: true });
    },
    reviseLiveAccess: async () => {
      const user = await createTestUser();
      const { client, connectionId } = await open(user);
      await userAccounts().update(user.record.id, { status: 'suspended' });
      // The users table's stream, delivered to the bundle as its event source mapping delivers it.
      const consumer = new LocalStreamConsumer(reviseLiveAccessFunction, new MemoryCheckpoints(), async (event) => resultOf(await run(reviseLiveAccessFunction.name, event)));
      try {
        expect((await consumer.drain()).delivered).toBeGreaterThan(0);
      } finally {
        await consumer.stop();
      }
      expect((await closeOf(client)).code).toBe(1000);
      expect(await liveRegistry().connection(connectionId)).toBeUndefined();
    },
    closeExpiredLiveConnections: async () => {
      const user = await createTestUser();
      // Long enough for the ticket and the connect to start their processes on a busy machine; then
      // the sweep closes the connection when the token expires, within its run.
      const { client, connectionId } = await open(user, 10);
      const report = resultOf(await run(closeExpiredLiveConnectionsFunction.name, scheduledEvent(closeExpiredLiveConnectionsFunction)));
      expect(report).toMatchObject({ closed: 1 });
      expect((await closeOf(client)).code).toBe(1000);
      expect(await liveRegistry().connection(connectionId)).toBeUndefined();
    },
  };

  return {
    configuration: () => ({
      [LIVE_ENV.websocketUrl]: server().url,
      [LIVE_ENV.connectionsEndpoint]: server().connectionsEndpoint,
      [CORS_ORIGINS_ENV]: LOCAL_CORS_ORIGINS,
    }),
    scenarios,
  };
}
