import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { sorted, walkCursor } from './log-fixture';
import { storeEntries } from '../harness/media-log';

/**
 * A user with hundreds of sub users lists its family's log: no filter expression may grow past
 * what DynamoDB accepts (one IN takes at most 100 operands), whatever the filters.
 */

const SUBS = 250;
let owner: TestUser;
let entries: MediaLogEntry[];

beforeAll(async () => {
  owner = await createTestUser({ role: 'user' });
  const subs: number[] = [];
  for (let index = 0; index < SUBS; index += 1) subs.push((await createTestUser({ role: 'sub', parent: owner.record.id })).record.id);
  entries = sampleMediaLogEntries(300, { userIds: [owner.record.id, ...subs.filter((_, index) => index % 25 === 0)], start: new Date('2026-05-01T00:00:00Z'), spanMs: 20 * 86_400_000, seed: 3 });
  await storeEntries(entries);
}, 300_000);

describe('the log of a family of hundreds', () => {
  it.each([
    ['everything', '', () => true],
    ['a status', 'status=error,warning', (entry: MediaLogEntry) => ['error', 'warning'].includes(entry.status)],
    ['a rare status on a check', 'status-mediainfo=processing', (entry: MediaLogEntry) => entry['status-mediainfo'] === 'processing'],
    ['a url', '', () => true],
  ])('lists %s with exact totals', async (name, query, keep) => {
    const url = entries[0]?.url as string;
    const fullQuery = name === 'a url' ? `url=${encodeURIComponent(url)}` : query;
    const expected = sorted(entries.filter(name === 'a url' ? (entry) => entry.url === url : keep));
    const walk = await walkCursor(owner.token, fullQuery, 50);
    expect(walk.entries).toEqual(expected);
    expect(new Set(walk.totals)).toEqual(new Set([expected.length]));
    // Each page reads the month counters of 251 users and merges the shards of those with entries.
  }, 180_000);
});
