import { createMediaLogListing } from '../../functions/media-log/listing/media-log-listing';
import { ListMediaLogQuerySchema } from '../../functions/media-log/listing/list-schemas';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { SHARDS } from '../../functions/media-log/model/shards';
import type { Caller } from '../../functions/shared/access/roles';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { itemsReadOf } from '../../functions/shared/observability/read-meter';
import { attachReadMeter } from '../../local/metering/read-meter';
import { mediaLogIndexName } from '../../functions/shared/tables/media-log-table';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { storeEntries } from '../harness/media-log';

/**
 * What a page costs, in DynamoDB's own read units (as AWS bills them) and in items read: index
 * items for the page's keys, the entries by key, and the counters. The log is big enough that a
 * listing reading more than its page (a scan, a check that drops most of what it reads, a merge
 * that over-reads) shows up as a multiple. The bounds are what the layout makes a page read: the
 * page's entries by key (one BatchGetItem), the head of each merged shard that lost, one Query per
 * shard and per counter partition.
 */

const root: Caller = { userId: 1, role: 'root', parentId: null };
const USERS = Array.from({ length: 40 }, (_, index) => 100 + index);
let entries: MediaLogEntry[];

beforeAll(async () => {
  entries = sampleMediaLogEntries(3000, { userIds: USERS, start: new Date('2026-01-01T00:00:00Z'), spanMs: 62 * 86_400_000, seed: 11 });
  await storeEntries(entries);
}, 400_000);

async function cost(query: Record<string, unknown>, caller: Caller = root) {
  const meter = attachReadMeter(getDocumentClient());
  try {
    const reply = await createMediaLogListing(getDocumentClient()).list(caller, ListMediaLogQuerySchema.parse(query));
    const tally = meter.tally();
    return { returned: reply.log.length, total: reply.pagination.total, items: itemsReadOf(tally), ...tally };
  } finally {
    meter.detach();
  }
}

const fiveUsers = USERS.slice(3, 8).join(',');

/** Read units of one Query, or of one entry read by key, whatever it holds (under 4 KB, eventually consistent). */
const READ = 0.5;

describe('media log read cost', () => {
  it.each([
    ['newest first', {}, SHARDS.log, 1],
    ['oldest first', { sort: { order: 'asc' } }, SHARDS.log, 1],
    ['one user', { 'user-id': String(USERS[2]) }, SHARDS.user, 1],
    ['five users', { 'user-id': fiveUsers }, 5 * SHARDS.user, 5],
  ])('%s reads its page\'s entries once, by key, and each merged shard at most twice', async (_name, query, streams, counterQueries) => {
    const result = await cost({ ...query, pagination: { limit: '10' } });

    expect(result.returned).toBe(10);
    expect(result.keyItems).toBe(10);
    // A Query per shard, and one more for a shard that held more than its share; the entries; a counter Query per scope.
    expect(result.billedReadUnits).toBeLessThanOrEqual(2 * streams * READ + 10 * READ + counterQueries * READ);
    expect(result.requests).toBeLessThanOrEqual(2 * streams + 1 + counterQueries);
  });

  it('a time range counts its two partial hours in every shard, and reads nothing else entry by entry', async () => {
    const result = await cost({ send: { from: '2026-01-20T03:17:00Z', to: '2026-02-10T21:03:00Z' }, pagination: { limit: '10' } });
    const inEdgeHours = entries.filter((entry) => entry.send.startsWith('2026-01-20T03') || entry.send.startsWith('2026-02-10T21')).length;

    expect(result.returned).toBe(10);
    expect(result.keyItems).toBe(10);
    expect(result.countedItems).toBeLessThanOrEqual(inEdgeHours);
    // The page's shards (twice at most), its entries, the two edges in every shard, and the month, day and hour counters of both ends.
    expect(result.billedReadUnits).toBeLessThanOrEqual(2 * SHARDS.log * READ + 10 * READ + 2 * SHARDS.log * READ + 5 * READ);
  });

  it.each([
    ['status=error (its own partitions)', { status: 'error' }],
    ['status=processing (rare: its own partitions)', { status: 'processing' }],
    ['status=success (no index items: the log, checked on the entries)', { status: 'success' }],
  ])('%s returns a full page of matches, read from the cheaper plan', async (_name, query) => {
    const result = await cost({ ...query, pagination: { limit: '10' } });
    const status = (query as { status: string }).status;
    const share = entries.filter((entry) => entry.status === status).length / entries.length;

    expect(result.returned).toBe(10);
    // Entries read by key: the page, and for the log (no index items) those that did not match, about (1 - share) / share of it.
    expect(result.keyItems).toBeLessThanOrEqual(Math.ceil(10 / share) + SHARDS.log);
  });

  it('reads a url\'s partitions for its total and for its page (a Query each per shard), and the page\'s entries by key', async () => {
    const url = entries[0]!.url;
    const result = await cost({ url, pagination: { limit: '10' } });
    const requests = entries.filter((entry) => entry.url === url).length;

    expect(result.returned).toBe(Math.min(10, requests));
    expect(result.total).toBe(requests);
    // The count reads every request of the url (Select COUNT); the page reads what it returns and the head after it.
    expect(result.countedItems).toBe(requests);
    expect(result.byIndex[mediaLogIndexName('url')]).toBeLessThanOrEqual(requests + Math.min(11, requests));
    expect(result.keyItems).toBe(result.returned);
    expect(result.requests).toBe(2 * SHARDS.url + 1);
  });

  it('reads the url\'s requests of a user\'s family only, however many other users requested it', async () => {
    const url = entries[0]!.url;
    const family: Caller = { userId: USERS[0] as number, role: 'user', parentId: null };
    const requests = entries.filter((entry) => entry.url === url);
    const result = await cost({ url }, family);

    expect(result.total).toBe(requests.filter((entry) => entry['user-id'] === USERS[0]).length);
    // The url's partition is read whole for the total (its few requests) and for the page, never another url's.
    expect(result.byIndex[mediaLogIndexName('url')]).toBeLessThanOrEqual(2 * requests.length);
  });

  it.each([
    ['the whole log', {}],
    ['one user', { 'user-id': String(USERS[0]) }],
  ])('jumps to page 20 of %s from the counters, skipping at most what one finest counter bucket holds', async (_name, query) => {
    const result = await cost({ ...query, pagination: { limit: '10', page: '20' } });

    expect(result.returned).toBe(10);
    expect(result.keyItems).toBe(10);
    // 190 entries lie before the page: the counters place it, and the merge skips at most an hour's (or a user's month's) entries.
    expect(result.indexItems).toBeLessThan(190);
  });
});
