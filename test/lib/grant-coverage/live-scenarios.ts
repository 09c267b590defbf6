import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { closeExpiredLiveConnectionsFunction, reviseLiveAccessFunction } from '../../../functions/live/access/access-functions';
import { liveRegistry } from '../../../functions/live/live-composition';
import { LIVE_ENV } from '../../../functions/live/live-config';
import { closingSecond, type LiveConnection } from '../../../functions/live/model/live-connection';
import { notifyMediaLogWatchersFunction } from '../../../functions/live/notify/stream-functions';
import { webSocketRoutes } from '../../../functions/live/connections/websocket-routes';
import type { WebSocketHandler } from '../../../functions/live/connections/websocket-route';
import { entryItem } from '../../../functions/media-log/model/entry-item';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogTable } from '../../../functions/shared/tables/media-log-table';
import { usersTable } from '../../../functions/shared/tables/users-table';
import { resetConfiguration } from '../../../functions/shared/config/define-config';
import { resetEveryLazy } from '../../../functions/shared/lazy';
import { lambdaContext } from '../../../local/gateway/lambda-context';
import { startLiveServer } from '../../../local/live/live-server';
import { connectEvent, disconnectEvent, messageEvent, localConnectionFacts } from '../../../local/live/websocket-events';
import { scheduledEvent } from '../../../local/schedule/local-scheduler';
import { invoke, type InvokeRequest } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { asFunction } from './sdk-recorder';
import { streamBatchEvent } from './stream-event';

/**
 * Every path of the live media log's functions that reaches DynamoDB, run once each as that
 * function, against a local WebSocket server for their `@connections` calls: a ticket issued (and
 * its key replayed and freed), connections made by a user and an admin, subscribed, unsubscribed
 * and closed, the notifier loading the registry, following its journal, beating its heart and
 * removing a gone connection, the access keeper rescoping and revoking, the sweep closing an
 * expired connection.
 */

/** Runs a WebSocket route's handler on `event` as that route's function. */
async function route(routeKey: string, event: Parameters<WebSocketHandler>[0]) {
  const definition = webSocketRoutes.find((candidate) => candidate.routeKey === routeKey);
  if (definition === undefined) throw new Error(`No WebSocket route ${routeKey}.`);
  const { handler } = (await import(`../../../${definition.handler}`)) as { handler: WebSocketHandler };
  return asFunction(definition.name, () => handler(event, lambdaContext(definition.name, 10_000)));
}

async function ticketFor(user: TestUser): Promise<string> {
  const call = (request: InvokeRequest) => asFunction('createLiveTicket', () => invoke('createLiveTicket', { caller: user.caller, ...request }));
  const headers = { 'Idempotency-Key': `"${randomUUID()}"` };
  const issued = await call({ headers });
  await call({ headers });
  return new URL(issued.body.url).searchParams.get('ticket') as string;
}

/** A ticket request whose ticket cannot be stored: the key it reserved is freed. */
async function failedTicket(user: TestUser): Promise<void> {
  const client = getDocumentClient();
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  const down = jest.spyOn(client as { send: (command: unknown) => Promise<unknown> }, 'send').mockImplementation(async (command) => {
    if (command instanceof PutCommand && String(command.input.Item?.pk).startsWith('TICKET#')) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    return send(command);
  });
  try {
    const answer = await asFunction('createLiveTicket', () => invoke('createLiveTicket', { caller: user.caller, headers: { 'Idempotency-Key': `"${randomUUID()}"` } }));
    if (answer.status !== 503) throw new Error(`A ticket that could not be stored answered ${answer.status}.`);
  } finally {
    down.mockRestore();
  }
}

/** Connect `user` with a fresh ticket: the connection's id. */
async function connect(user: TestUser, domain: string): Promise<string> {
  const facts = localConnectionFacts(domain);
  const answer = await route('$connect', connectEvent(facts, { headers: [['Origin', 'http://localhost:5173']], rawQuery: `ticket=${await ticketFor(user)}` }));
  if (answer.statusCode !== 200) throw new Error(`$connect answered ${answer.statusCode}.`);
  return facts.connectionId;
}

async function say(connectionId: string, routeKey: string, message: object, domain: string): Promise<void> {
  const answer = await route(routeKey, messageEvent(localConnectionFacts(domain, connectionId), routeKey, Buffer.from(JSON.stringify(message)), false));
  if (!/"(subscribed|unsubscribed)"/.test(answer.body ?? '')) throw new Error(`${routeKey} answered ${answer.body}.`);
}

/** A connection the registry holds but the WebSocket server does not know (its $disconnect lost), subscribed. */
async function ghost(user: TestUser, tokenExpires: number): Promise<LiveConnection> {
  const connection: LiveConnection = { connectionId: `ghost${randomUUID().slice(0, 10)}=`, caller: user.caller, tokenExpires, connectedAt: Date.now(), closesAt: closingSecond(Date.now()), directory: { family: [user.record.id] }, subscriptions: {}, revision: 0 };
  const list = await liveRegistry().userConnections(user.record.id);
  await liveRegistry().open(connection, list, { ...list?.connections, [connection.connectionId]: connection.closesAt });
  return liveRegistry().revise(connection, { subscriptions: { all: {} }, directory: connection.directory }, Date.now());
}

async function notifierScenario(owner: TestUser): Promise<void> {
  const { handler } = await import('../../../functions/live/notify/notify-media-log-watchers');
  const { name } = notifyMediaLogWatchersFunction;
  await ghost(owner, Math.floor(Date.now() / 1000) + 3600);
  const entry = { id: randomUUID(), send: new Date().toISOString(), status: 'pending', 'status-ffscan': 'pending', 'status-mediainfo': 'pending', 'status-scan-report': 'pending', url: 'https://media.example/grants', 'user-id': owner.record.id } as const;
  const source = { tableName: tableName(mediaLogTable), shardId: 'shardId-00000001700000000000-live', keys: ['pk'] };
  // The first batch loads the registry and finds the ghost gone; the second reads the journal.
  for (let batch = 0; batch < 2; batch += 1) {
    await asFunction(name, () => handler(streamBatchEvent([{ after: entryItem({ ...entry, id: randomUUID() }) }], source), lambdaContext(name, 30_000)));
  }
}

async function accessScenario(people: { parent: TestUser; admin: TestUser; suspended: TestUser }): Promise<void> {
  const { handler } = await import('../../../functions/live/access/revise-live-access');
  const profile = (user: TestUser, changes: Record<string, unknown> = {}) => ({ pk: `USER#${user.record.id}`, sk: 'PROFILE', id: user.record.id, role: user.record.role, status: 'active', ...(user.record.parentId === null ? {} : { parentId: user.record.parentId }), ...changes });
  const newSub = await createTestUser({ role: 'sub', parent: people.parent.record.id });
  const newRoot = await createTestUser({ role: 'root' });
  const event = streamBatchEvent(
    [{ after: profile(newSub) }, { after: profile(newRoot) }, { before: profile(people.suspended), after: profile(people.suspended, { status: 'suspended' }) }],
    { tableName: tableName(usersTable), shardId: 'shardId-00000001700000000000-users', keys: ['pk', 'sk'] },
  );
  await asFunction(reviseLiveAccessFunction.name, () => handler(event, lambdaContext(reviseLiveAccessFunction.name, 60_000)));
}

async function sweepScenario(owner: TestUser): Promise<void> {
  const { handler } = await import('../../../functions/live/access/close-expired-live-connections');
  const expired = await ghost(owner, Math.floor(Date.now() / 1000) - 10);
  const { name } = closeExpiredLiveConnectionsFunction;
  await asFunction(name, () => handler(scheduledEvent(closeExpiredLiveConnectionsFunction), lambdaContext(name, 90_000)));
  if ((await liveRegistry().connection(expired.connectionId)) !== undefined) throw new Error('The sweep kept an expired connection.');
}

/** Runs the live media log's scenarios beside a local WebSocket server, which it stops after. */
export async function liveScenarios(): Promise<void> {
  const server = await startLiveServer({ port: 0, accessLog: null });
  const saved = { url: process.env[LIVE_ENV.websocketUrl], endpoint: process.env[LIVE_ENV.connectionsEndpoint] };
  process.env[LIVE_ENV.websocketUrl] = server.url;
  process.env[LIVE_ENV.connectionsEndpoint] = server.connectionsEndpoint;
  // The functions read the endpoint anew; the SDK clients stay, with the recorder on them.
  resetConfiguration();
  resetEveryLazy();
  try {
    const domain = new URL(server.connectionsEndpoint).host;
    const parent = await createTestUser({ role: 'user' });
    const people = { parent, admin: await createTestUser({ role: 'admin' }), suspended: await createTestUser({ role: 'user' }) };
    await failedTicket(parent);
    const [mine, admins] = [await connect(parent, domain), await connect(people.admin, domain)];
    await connect(people.suspended, domain);
    await say(mine, 'subscribe', { action: 'subscribe', id: 'a', filter: {} }, domain);
    await say(mine, 'subscribe', { action: 'subscribe', id: 'b', filter: { status: ['error'] } }, domain);
    await say(mine, 'unsubscribe', { action: 'unsubscribe', id: 'b' }, domain);
    await say(admins, 'subscribe', { action: 'subscribe', id: 'a', filter: {} }, domain);
    const leaving = await connect(parent, domain);
    await say(leaving, 'subscribe', { action: 'subscribe', id: 'a', filter: {} }, domain);
    await route('$disconnect', disconnectEvent(localConnectionFacts(domain, leaving), 1000, 'bye'));
    // Before the notifier, which finds these connections gone (the WebSocket server never saw them).
    await accessScenario(people);
    await notifierScenario(parent);
    await sweepScenario(parent);
  } finally {
    process.env[LIVE_ENV.websocketUrl] = saved.url;
    process.env[LIVE_ENV.connectionsEndpoint] = saved.endpoint;
    await server.close();
  }
}
