import { randomUUID } from 'node:crypto';
import { createMediaLogListing } from '../../functions/media-log/listing/media-log-listing';
import { ListMediaLogQuerySchema } from '../../functions/media-log/listing/list-schemas';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import type { Caller } from '../../functions/shared/access/roles';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { attachReadMeter } from '../../local/metering/read-meter';
import { SHARDS } from '../../functions/media-log/model/shards';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { createTestUser, type TestUser } from '../harness/users';
import { sorted, walkCursor } from './log-fixture';
import { storeEntries } from '../harness/media-log';

/**
 * A user with hundreds of sub users lists its family's log: no filter expression may grow past
 * what DynamoDB accepts (one IN takes at most 100 operands), whatever the filters, and a page of
 * its own scope costs what a page of a user alone costs, and a scope more (DESIGN.md 7b, round
 * five: the top user's and the family's partitions and counters, not each member's).
 */

const SUBS = 250;
let owner: TestUser;
let loner: TestUser;
let entries: MediaLogEntry[];

beforeAll(async () => {
  owner = await createTestUser({ role: 'user' });
  loner = await createTestUser({ role: 'user' });
  const subs: number[] = [];
  for (let index = 0; index < SUBS; index += 1) subs.push((await createTestUser({ role: 'sub', parent: owner.record.id })).record.id);
  entries = sampleMediaLogEntries(300, { userIds: [owner.record.id, ...subs.filter((_, index) => index % 25 === 0)], start: new Date('2026-05-01T00:00:00Z'), spanMs: 20 * 86_400_000, seed: 3 });
  // The user alone: the family's entries again (the same times and statuses), all its own.
  const alone = entries.map((entry) => ({ ...entry, id: randomUUID(), 'user-id': loner.record.id }));
  await storeEntries([...entries, ...alone]);
}, 300_000);

/** Read units and requests of one page of `query` for `caller`, from DynamoDB's consumed capacity. */
async function pageCost(caller: Caller, query: Record<string, unknown>) {
  const meter = attachReadMeter(getDocumentClient());
  try {
    const reply = await createMediaLogListing(getDocumentClient()).list(caller, ListMediaLogQuerySchema.parse(query));
    return { returned: reply.log.length, total: reply.pagination.total, exact: reply.pagination['total-exact'], ...meter.tally() };
  } finally {
    meter.detach();
  }
}

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
  }, 180_000);

  it.each([
    ['newest first', {}],
    ['a status', { status: 'error,warning' }],
    ['a week', { send: { from: '2026-05-05T00:00:00.000Z', to: '2026-05-12T00:00:00.000Z' } }],
  ])('reads a page of %s of the family of 251 members as a user alone reads its own', async (_name, query) => {
    const family = await pageCost({ userId: owner.record.id, role: 'user', parentId: null }, { ...query, pagination: { limit: '10' } });
    const alone = await pageCost({ userId: loner.record.id, role: 'user', parentId: null }, { ...query, pagination: { limit: '10' } });

    expect(family.returned).toBe(10);
    expect(alone.returned).toBe(10);
    expect([family.total, family.exact]).toEqual([alone.total, true]);
    // Beyond what the user alone reads: the family's move marker, and the sub users' scope (one counter Query, a Query per
    // shard): nothing per member. The same entries at the same times; only their shards (a hash of the id) differ, and with
    // them a head read.
    const scopeMore = 1 + 1 + SHARDS.user;
    expect(family.requests - alone.requests).toBeGreaterThanOrEqual(-1);
    expect(family.requests - alone.requests).toBeLessThanOrEqual(scopeMore);
    // Each of those reads at least 0.5 units, and the head read that the shards move one more.
    expect(Math.abs(family.billedReadUnits - alone.billedReadUnits)).toBeLessThanOrEqual(0.5 * (scopeMore + 1));
  }, 60_000);
});
