import { DeliveryPlanner } from '../../functions/live/notify/delivery-planner';
import type { Candidate } from '../../functions/live/notify/watcher-index';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';

/**
 * The notifier's pacing (DESIGN.md 7c), on the planner it runs: the latest state of an entry at
 * most once a second per subscription, at most 20 entry messages a second per subscription (its
 * share of them among the shards' notifiers), one overflow a second for what was dropped.
 */

const watcher = { connectionId: 'c1', subscription: 's1' };
const entry = (id: string, status: MediaLogEntry['status'] = 'pending'): MediaLogEntry => ({
  id,
  send: '2026-01-01T00:00:00.000Z',
  status,
  'status-ffscan': 'pending',
  'status-mediainfo': 'pending',
  'status-scan-report': 'pending',
  url: 'https://media.example/a',
  'user-id': 1,
});
const candidate = (id: string, status?: MediaLogEntry['status']): Candidate => ({ watcher, entry: entry(id, status), matches: true });
const kinds = (posts: { message: { type: string } }[]) => posts.map((post) => post.message.type);

describe('the delivery planner', () => {
  it('sends a change at once, holds the next change of the entry within the second, and sends its latest state then', () => {
    const planner = new DeliveryPlanner();
    planner.offer([candidate('a', 'pending')], 1000);
    expect(planner.due(1000).posts.map((post) => post.message)).toEqual([{ type: 'entry', subscription: 's1', entry: entry('a', 'pending'), matches: true }]);

    planner.offer([candidate('a', 'processing')], 1200);
    planner.offer([candidate('a', 'success')], 1500);
    const held = planner.due(1600);
    expect(held).toEqual({ posts: [], nextDueMs: 2000 });

    expect(planner.due(2000).posts.map((post) => post.message)).toEqual([{ type: 'entry', subscription: 's1', entry: entry('a', 'success'), matches: true }]);
    expect(planner.due(3000).posts).toEqual([]);
  });

  it('sends at most 20 entry messages a second to a subscription, then one overflow naming how many it dropped', () => {
    const planner = new DeliveryPlanner();
    planner.offer(Array.from({ length: 50 }, (_, index) => candidate(`e${index}`)), 0);
    const first = planner.due(0).posts;
    expect(kinds(first)).toEqual([...Array(20).fill('entry'), 'overflow']);
    expect(first.at(-1)?.message).toEqual({ type: 'overflow', subscription: 's1', dropped: 30 });

    planner.offer(Array.from({ length: 50 }, (_, index) => candidate(`f${index}`)), 500);
    // Half a second refilled ten tokens; the overflow waits for its second.
    const second = planner.due(500);
    expect(kinds(second.posts)).toEqual(Array(10).fill('entry'));
    expect(second.nextDueMs).toBe(1000);
    expect(planner.due(1000).posts.map((post) => post.message)).toEqual([{ type: 'overflow', subscription: 's1', dropped: 40 }]);
  });

  it('keeps each subscription to its share when several shards serve it: of the entry messages, and of the overflows', () => {
    const planner = new DeliveryPlanner();
    planner.offer(Array.from({ length: 30 }, (_, index) => candidate(`e${index}`)), 0);
    expect(kinds(planner.due(0, 4).posts)).toEqual([...Array(5).fill('entry'), 'overflow']);

    planner.offer(Array.from({ length: 30 }, (_, index) => candidate(`f${index}`)), 1000);
    const next = planner.due(1000, 4);
    expect(kinds(next.posts)).toEqual(Array(5).fill('entry'));
    expect(next.nextDueMs).toBe(4000);
  });

  it('keeps subscriptions apart, and forgets those of a closed connection', () => {
    const planner = new DeliveryPlanner();
    const other = { connectionId: 'c2', subscription: 's1' };
    planner.offer([candidate('a'), { watcher: other, entry: entry('a'), matches: false }], 0);
    expect(planner.due(0).posts.map((post) => post.connectionId).sort()).toEqual(['c1', 'c2']);

    planner.offer([{ watcher: other, entry: entry('a', 'error'), matches: false }], 100);
    planner.forget('c2');
    expect(planner.due(2000).posts).toEqual([]);
    expect(planner.waiting).toBe(0);
  });
});
