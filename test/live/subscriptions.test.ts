import { randomUUID } from 'node:crypto';
import { createTestUser, type TestUser } from '../harness/users';
import { settle, useLiveStack, type LiveClient } from '../harness/live';
import { requestMessage, statusMessage } from '../media-log/feed/feed-fixture';
import { LIVE_LIMITS, WEBSOCKET_QUOTAS } from '../../functions/live/model/live-limits';
import type { LiveMessage } from '../../functions/live/model/live-messages';

/**
 * Subscriptions and their messages (DESIGN.md 7c): the filter of GET /media/log within the caller's
 * scope, entry messages for changes whose old or new state matches, and an error message, never a
 * closed connection, for whatever a client sends wrong; API Gateway's size limits close it, as in AWS.
 */

const live = useLiveStack();
let owner: TestUser;

beforeAll(async () => {
  owner = await createTestUser({ role: 'user' });
});

const isError = (id?: string) => (message: LiveMessage): message is Extract<LiveMessage, { type: 'error' }> => message.type === 'error' && message.id === id;
const entryOf = (id: string) => (message: LiveMessage) => message.type === 'entry' && message.entry.id === id;
const now = () => new Date().toISOString();

async function newEntry(userId: number, status: 'pending' | 'error' = 'pending'): Promise<string> {
  const id = randomUUID();
  await live.feed([requestMessage({ id, send: now(), url: `https://media.example/${id}`, 'user-id': userId, status })]);
  return id;
}

describe('a subscription', () => {
  let client: LiveClient;

  beforeAll(async () => {
    client = await live.open(owner.token);
  });

  it('is confirmed, and pushes a new entry it matches with matches true', async () => {
    expect(await client.subscribe('mine')).toEqual({ type: 'subscribed', id: 'mine' });
    await settle();
    const id = await newEntry(owner.record.id);

    const message = await client.next(entryOf(id));
    expect(message).toEqual({
      type: 'entry',
      subscription: 'mine',
      matches: true,
      entry: expect.objectContaining({ id, 'user-id': owner.record.id, status: 'pending', 'status-ffscan': 'pending', url: `https://media.example/${id}` }),
    });
  });

  it('pushes a change that takes an entry out of its filter once, with matches false, and nothing after', async () => {
    const watcher = await live.open(owner.token);
    expect(await watcher.subscribe('in-flight', { status: ['pending', 'processing'] })).toEqual({ type: 'subscribed', id: 'in-flight' });
    expect(await watcher.subscribe('witness')).toEqual({ type: 'subscribed', id: 'witness' });
    await settle();
    const id = await newEntry(owner.record.id);
    await watcher.next((message) => entryOf(id)(message) && message.type === 'entry' && message.subscription === 'in-flight');
    await live.feed([statusMessage(id, 'status', 'success', now())]);

    const left = await watcher.next((message) => message.type === 'entry' && message.subscription === 'in-flight' && message.entry.status === 'success');
    expect(left).toMatchObject({ matches: false, entry: { id, status: 'success' } });

    // The witness sees the next change; the subscription it left does not.
    await live.feed([statusMessage(id, 'status-ffscan', 'success', now())]);
    await watcher.next((message) => message.type === 'entry' && message.subscription === 'witness' && message.entry['status-ffscan'] === 'success');
    expect(watcher.messages.filter((message) => message.type === 'entry' && message.subscription === 'in-flight')).toHaveLength(2);
  });

  it('ends with unsubscribe: no more messages of it', async () => {
    expect(await client.subscribe('short')).toEqual({ type: 'subscribed', id: 'short' });
    client.send({ action: 'unsubscribe', id: 'short' });
    await client.next((message) => message.type === 'unsubscribed' && message.id === 'short');
    await settle();
    const id = await newEntry(owner.record.id);
    await client.next((message) => entryOf(id)(message) && message.type === 'entry' && message.subscription === 'mine');
    expect(client.messages.some((message) => message.type === 'entry' && message.subscription === 'short' && message.entry.id === id)).toBe(false);
  });
});

describe('what a client sends wrong', () => {
  let client: LiveClient;

  beforeAll(async () => {
    client = await live.open(owner.token);
  });

  it.each([
    ['not JSON', 'hello', 400, 'malformed_body'],
    ['JSON without an action', '{"id":"x"}', 400, 'validation_failed'],
    ['an unknown action', '{"action":"publish"}', 400, 'validation_failed'],
    ['an array', '[1,2]', 400, 'validation_failed'],
    [`more than ${LIVE_LIMITS.messageBytes} bytes`, JSON.stringify({ action: 'subscribe', id: 'big', filter: { url: 'x'.repeat(LIVE_LIMITS.messageBytes) } }), 413, 'payload_too_large'],
  ])('%s is answered with an error message, and the connection stays open', async (_what, text, status, code) => {
    const before = client.messages.length;
    client.send(text);
    const error = await client.next((message) => message.type === 'error' && client.messages.indexOf(message) >= before);
    expect(error).toMatchObject({ type: 'error', status, code, detail: expect.any(String) });
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it('a filter the listing would refuse is a 400 naming each field', async () => {
    client.send({ action: 'subscribe', id: 'bad', filter: { status: ['lost'], 'user-id': [0], colour: 'red' } });
    const error = await client.next(isError('bad'));
    expect(error).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(error.errors?.map((field) => field.name).sort()).toEqual(['filter.colour', 'filter.status', 'filter.user-id']);
  });

  it(`a ${LIVE_LIMITS.subscriptionsPerConnection + 1}th subscription and a second one of the same id are 409`, async () => {
    const other = await live.open(owner.token);
    for (let index = 0; index < LIVE_LIMITS.subscriptionsPerConnection; index += 1) expect((await other.subscribe(`s${index}`)).type).toBe('subscribed');
    expect(await other.subscribe('one-more')).toMatchObject({ type: 'error', id: 'one-more', status: 409, code: 'conflict' });
    expect(await other.subscribe('s0')).toMatchObject({ type: 'error', id: 's0', status: 409, code: 'conflict' });
    other.send({ action: 'unsubscribe', id: 'nothing' });
    expect(await other.next(isError('nothing'))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it(`a message over ${WEBSOCKET_QUOTAS.messageBytes / 1024} KB closes the connection with 1009, as API Gateway does`, async () => {
    const doomed = await live.open(owner.token);
    doomed.socket.send(Buffer.alloc(WEBSOCKET_QUOTAS.messageBytes + 1, 'a'), { fin: false });
    expect((await doomed.closed).code).toBe(1009);
  });

  it(`a frame over ${WEBSOCKET_QUOTAS.frameBytes / 1024} KB closes it with 1009 too, though the message is under ${WEBSOCKET_QUOTAS.messageBytes / 1024} KB`, async () => {
    const doomed = await live.open(owner.token);
    doomed.send(JSON.stringify({ action: 'subscribe', id: 'x', filter: { url: 'y'.repeat(WEBSOCKET_QUOTAS.frameBytes) } }));
    expect((await doomed.closed).code).toBe(1009);
    expect(doomed.messages).toEqual([]);
  });
});
