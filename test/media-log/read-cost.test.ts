import { createMediaLogListing } from '../../functions/media-log/listing/media-log-listing';
import { ListMediaLogQuerySchema } from '../../functions/media-log/listing/list-schemas';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { SHARDS } from '../../functions/media-log/model/shards';
import type { Caller } from '../../functions/shared/access/roles';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { attachReadMeter, itemsReadOf } from '../../functions/shared/observability/read-meter';
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
    return { returned: reply.log.length, total: reply.pagination.total, exact: reply.pagination['total-exact'], items: itemsReadOf(tally), ...tally };
  } finally {
    meter.detach();
  }
}

const fiveUsers = USERS.slice(3, 8).join(',');

describe('media log read cost', () => {
  it.each([
    ['newest first', {}, SHARDS.log],
    ['oldest first', { sort: { order: 'asc' } }, SHARDS.log],
    ['one user', { 'user-id': String(USERS[2]) }, SHARDS.user],
    ['five users', { 'user-id': fiveUsers }, 5 * SHARDS.user],
  ])('%s reads its page\'s entries once by key, and the index items of the page plus a head per merged shard', async (_name, query, streams) => {
    const result = await cost({ ...query, pagination: { limit: '10' } });
    console.log(_name, JSON.stringify(result));
    expect(result.returned).toBe(10);
    expect(result.keyItems).toBe(10);
    expect(result.indexItems).toBeLessThanOrEqual(10 + streams);
  });

  it.each([
    ['a time range', { send: { from: '2026-01-20T03:17:00Z', to: '2026-02-10T21:03:00Z' } }],
    ['status=error', { status: 'error' }],
    ['status=processing (rare)', { status: 'processing' }],
    ['status=success (no index items)', { status: 'success' }],
  ])('%s', async (_name, query) => {
    const result = await cost({ ...query, pagination: { limit: '10' } });
    console.log(_name, JSON.stringify(result));
    expect(result.returned).toBe(10);
  });

  it('reads a url\'s partition once for its total and its page, and the page\'s entries by key', async () => {
    const url = entries[0]!.url;
    const result = await cost({ url, pagination: { limit: '10' } });
    console.log('url', JSON.stringify(result));
    const requests = entries.filter((entry) => entry.url === url).length;
    expect(result.returned).toBe(Math.min(10, requests));
    expect(result.total).toBe(requests);
    expect(result.byIndex[mediaLogIndexName('url')]).toBe(requests);
    expect(result.keyItems).toBe(result.returned);
  });
});
