import { randomUUID } from 'node:crypto';
import { closeExpiredLiveConnectionsFunction } from '../../functions/live/access/access-functions';
import { handler as sweep } from '../../functions/live/access/close-expired-live-connections';
import { liveRegistry } from '../../functions/live/live-composition';
import { closingSecond } from '../../functions/live/model/live-connection';
import { lambdaContext } from '../../local/gateway/lambda-context';
import { scheduledEvent } from '../../local/schedule/local-scheduler';
import { userAccounts } from '../../local/tool-composition';
import { tokenFor } from '../harness/invoke';
import { PAGE_ORIGIN, settle, useLiveStack } from '../harness/live';
import { createTestUser } from '../harness/users';
import { requestMessage } from '../media-log/feed/feed-fixture';

/**
 * Revocation and expiry (DESIGN.md 7c): a user whose status or role changes, or who is deleted,
 * loses its live connections, whichever path made the change (here the operator's, as `cli user
 * update` and `user delete` make it); a connection closes when the token that obtained its ticket
 * expires; a family that grows is heard of by its head's subscriptions; a connection that is gone
 * leaves the registry. The stack's bound is 60 seconds; the waits below are only guards.
 */

const live = useLiveStack();
const GUARD_MS = 20_000;

const within = <T>(promise: Promise<T>, ms = GUARD_MS): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`Not within ${ms} ms.`)), ms))]);

async function subscribedClient(token: string) {
  const client = await live.open(token);
  expect((await client.subscribe('all')).type).toBe('subscribed');
  await settle();
  return client;
}

describe('a change of the user', () => {
  it.each([
    ['a suspension', { status: 'suspended' }],
    ['a change of role', { role: 'admin' }],
  ] as const)('%s closes its connections and clears them from the registry', async (_what, change) => {
    const user = await createTestUser({ role: 'user' });
    const [first, second] = [await subscribedClient(user.token), await subscribedClient(user.token)];

    await userAccounts().update(user.record.id, change);

    expect((await within(first.closed)).code).toBe(1000);
    expect((await within(second.closed)).code).toBe(1000);
    expect(Object.keys((await liveRegistry().userConnections(user.record.id))?.connections ?? {})).toEqual([]);
  }, 60_000);

  it('a deletion closes its connections', async () => {
    const user = await createTestUser({ role: 'user' });
    const client = await subscribedClient(user.token);

    await userAccounts().remove(user.record.id);

    expect((await within(client.closed)).code).toBe(1000);
  }, 60_000);

  it('a new sub user is heard of by its parent\'s open subscription', async () => {
    const parent = await createTestUser({ role: 'user' });
    const client = await subscribedClient(parent.token);
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    // The access keeper rescopes the parent's connection from the users table's stream.
    await within(
      (async () => {
        for (;;) {
          const connection = (await liveRegistry().everything()).find((candidate) => candidate.caller.userId === parent.record.id);
          if (connection?.directory.family?.includes(sub.record.id)) return;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      })(),
    );
    await settle();
    const id = randomUUID();
    await live.feed([requestMessage({ id, send: new Date().toISOString(), url: 'https://media.example/new-sub', 'user-id': sub.record.id })]);

    expect(await client.next((message) => message.type === 'entry' && message.entry.id === id)).toMatchObject({ matches: true });
  }, 60_000);
});

describe('the expiry of the token that obtained the ticket', () => {
  it('closes the connection when the token expires, not before', async () => {
    const user = await createTestUser({ role: 'user' });
    const token = await tokenFor(user.record.subject, 4);
    const expires = Date.now() + 4000;
    const client = await subscribedClient(token);

    const run = sweep(scheduledEvent(closeExpiredLiveConnectionsFunction), lambdaContext(closeExpiredLiveConnectionsFunction.name, 90_000));
    const { code } = await within(client.closed);
    const closedAt = Date.now();
    await run;

    expect(code).toBe(1000);
    expect(closedAt).toBeGreaterThanOrEqual(expires - 1000);
  }, 60_000);
});

describe('a connection that is gone', () => {
  it('leaves the registry when a message for it finds it gone', async () => {
    const user = await createTestUser({ role: 'user' });
    const witness = await subscribedClient(user.token);
    // Registered, subscribed, but unknown to the WebSocket server: as after a lost $disconnect.
    const ghost = { connectionId: `ghost${randomUUID().slice(0, 8)}=`, caller: user.caller, tokenExpires: Math.floor(Date.now() / 1000) + 3600, connectedAt: Date.now(), closesAt: closingSecond(Date.now()), directory: { family: [user.record.id] }, subscriptions: {}, revision: 0 };
    await liveRegistry().open(ghost, await liveRegistry().userConnections(user.record.id), {
      ...(await liveRegistry().userConnections(user.record.id))?.connections,
      [ghost.connectionId]: ghost.closesAt,
    });
    await liveRegistry().revise(ghost, { subscriptions: { all: {} }, directory: ghost.directory }, Date.now());
    await settle();
    const id = randomUUID();
    await live.feed([requestMessage({ id, send: new Date().toISOString(), url: 'https://media.example/ghost', 'user-id': user.record.id })]);
    await witness.next((message) => message.type === 'entry' && message.entry.id === id);

    await within(
      (async () => {
        while ((await liveRegistry().connection(ghost.connectionId)) !== undefined) await new Promise((resolve) => setTimeout(resolve, 200));
      })(),
    );
    expect(Object.keys((await liveRegistry().userConnections(user.record.id))?.connections ?? {})).not.toContain(ghost.connectionId);
  }, 60_000);
});

describe('a connection from a page', () => {
  it('is refused once its user is suspended, even with a ticket taken before', async () => {
    const user = await createTestUser({ role: 'user' });
    const { url } = (await live.ticket(user.token)).body;
    await userAccounts().update(user.record.id, { status: 'suspended' });
    expect(await live.connect(url, PAGE_ORIGIN)).toEqual({ refused: 403 });
  });
});
