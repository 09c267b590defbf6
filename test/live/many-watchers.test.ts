import { randomUUID } from 'node:crypto';
import { createTestUser } from '../harness/users';
import { settle, useLiveStack, type LiveClient } from '../harness/live';
import { requestMessage, statusMessage } from '../media-log/feed/feed-fixture';

/**
 * A hundred subscribed connections while the feed runs (DESIGN.md 9; the delay is the live bench's
 * figure): every watcher ends with the last state of every entry of its user, none of another's.
 */

const live = useLiveStack({ pollMs: 250 });

it('loses nothing across 100 connections, and mixes no user\'s entries into another\'s', async () => {
  const watchers: { userId: number; client: LiveClient }[] = [];
  // One at a time: ten at once kept DynamoDB Local busy past a subscription's 10 s answer on a loaded machine.
  for (let index = 0; index < 100; index += 1) {
    const user = await createTestUser({ role: 'user' });
    const client = await live.open(user.token);
    // Loss, not delay, again: a clean-clone run had DynamoDB Local answer in over 3 s a call, and a subscription takes a few.
    expect((await client.subscribe('mine', {}, 45_000)).type).toBe('subscribed');
    watchers.push({ userId: user.record.id, client });
  }
  await settle();
  const finals = new Map<string, number>();
  for (let round = 0; round < 10; round += 1) {
    const owners = Array.from({ length: 10 }, () => watchers[Math.floor(Math.random() * watchers.length)] as (typeof watchers)[number]);
    const ids = owners.map(() => randomUUID());
    await live.feed(owners.map(({ userId }, index) => requestMessage({ id: ids[index] as string, send: new Date().toISOString(), url: `https://media.example/${round}`, 'user-id': userId })));
    await live.feed(ids.map((id) => statusMessage(id, 'status', 'success', new Date(Date.now() + 1).toISOString())));
    ids.forEach((id, index) => finals.set(id, (owners[index] as (typeof watchers)[number]).userId));
  }

  // This test is about loss, not delay (the live bench measures the delay): on a loaded machine
  // DynamoDB Local answers in seconds while every stream consumer polls it, so each wait is long.
  for (const [id, userId] of finals) {
    const watcher = watchers.find((candidate) => candidate.userId === userId) as (typeof watchers)[number];
    await watcher.client.next((message) => message.type === 'entry' && message.entry.id === id && message.entry.status === 'success', 45_000);
  }
  for (const { userId, client } of watchers) {
    expect(client.messages.filter((message) => message.type === 'entry' && message.entry['user-id'] !== userId)).toEqual([]);
    expect(client.messages.filter((message) => message.type === 'overflow' || message.type === 'error')).toEqual([]);
  }
}, 480_000);
