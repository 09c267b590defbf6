import { createMediaLogListing } from '../../functions/media-log/listing/media-log-listing';
import { storeEntries } from '../harness/media-log';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { attachReadMeter } from '../harness/read-meter';
import { ListMediaLogQuerySchema } from '../../functions/media-log/listing/list-schemas';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import type { Caller } from '../../functions/shared/access/roles';
import { getDocumentClient } from '../../functions/shared/aws/clients';

/**
 * What a page costs: entries read for the page (ScannedCount) against entries returned. The log
 * is big enough that a listing reading more than its page (a scan, a filter that drops most of
 * what it reads, a merge that over-reads) shows up as a multiple.
 */

const root: Caller = { userId: 1, role: 'root', parentId: null };
const USERS = Array.from({ length: 40 }, (_, index) => 100 + index);
let entries: MediaLogEntry[];

beforeAll(async () => {
  entries = sampleMediaLogEntries(3000, { userIds: USERS, start: new Date('2026-01-01T00:00:00Z'), spanMs: 62 * 86_400_000, seed: 11 });
  await storeEntries(entries);
}, 400_000);

async function cost(query: Record<string, unknown>) {
  const meter = attachReadMeter(getDocumentClient());
  try {
    const reply = await createMediaLogListing(getDocumentClient()).list(root, ListMediaLogQuerySchema.parse(query));
    return { returned: reply.log.length, total: reply.pagination.total, ...meter.tally() };
  } finally {
    meter.detach();
  }
}

const fiveUsers = USERS.slice(3, 8).join(',');

describe('media log read cost', () => {
  it.each([
    ['newest first', {}],
    ['oldest first', { sort: { order: 'asc' } }],
    ['one user', { 'user-id': String(USERS[2]) }],
    ['five users', { 'user-id': fiveUsers }],
    ['a time range', { send: { from: '2026-01-20T03:17:00Z', to: '2026-02-10T21:03:00Z' } }],
    ['status=error', { status: 'error' }],
    ['status=processing (rare)', { status: 'processing' }],
  ])('%s reads at most 1.5 entries per entry returned', async (_name, query) => {
    const result = await cost({ ...query, pagination: { limit: '10', ...(query as { pagination?: object }).pagination } });
    expect(result.returned).toBe(10);
    expect(result.entriesRead).toBeLessThanOrEqual(15);
  });

  it.each([
    ['the whole log', {}, () => true, 13],
    ['one user', { 'user-id': String(USERS[0]) }, (entry: MediaLogEntry) => entry['user-id'] === USERS[0], 10],
  ])('jumps to page 20 of %s skipping at most one finest counter bucket, not 190 entries', async (_name, query, keep, prefix) => {
    const result = await cost({ ...query, pagination: { limit: '10', page: '20' } });
    const perBucket = new Map<string, number>();
    for (const entry of entries.filter(keep)) perBucket.set(entry.send.slice(0, prefix), (perBucket.get(entry.send.slice(0, prefix)) ?? 0) + 1);
    expect(result.returned).toBe(10);
    expect(result.entriesRead).toBeLessThanOrEqual(10 + Math.max(...perBucket.values()));
  });

  it('reads a filtered merge of five users close to what any merge must read', async () => {
    const result = await cost({ 'user-id': fiveUsers, status: 'success', send: { from: '2026-01-05T00:00:00Z' }, pagination: { limit: '10' } });
    const candidates = entries.filter((entry) => fiveUsers.split(',').includes(String(entry['user-id'])) && entry.send >= '2026-01-05T00:00:00.000Z');
    const selectivity = candidates.filter((entry) => entry.status === 'success').length / candidates.length;
    // A merge needs the head of every stream to emit the last entry: at least 10 + 4 matches, each read among 1/selectivity entries.
    const lowerBound = (10 + 4) / selectivity;
    expect(result.returned).toBe(10);
    expect(result.entriesRead).toBeLessThanOrEqual(Math.ceil(lowerBound * 1.15));
  });

  it('reads only what it returns for a url listing, and counts only the url\'s own requests for its total', async () => {
    const url = entries[0]!.url;
    const result = await cost({ url, pagination: { limit: '10' } });
    const requests = entries.filter((entry) => entry.url === url).length;
    expect(result.returned).toBe(Math.min(10, requests));
    expect(result.total).toBe(requests);
    expect(result.entriesRead).toBe(result.returned);
    expect(result.entriesCounted).toBe(requests);
  });

  it('reads the url\'s requests of a user\'s family only, however many other users requested it', async () => {
    const url = entries[0]!.url;
    const family = { userId: USERS[0] as number, role: 'user' as const, parentId: null };
    const meter = attachReadMeter(getDocumentClient());
    try {
      const reply = await createMediaLogListing(getDocumentClient()).list(family, ListMediaLogQuerySchema.parse({ url }));
      const requests = entries.filter((entry) => entry.url === url);
      expect(reply.log.every((entry) => entry['user-id'] === USERS[0])).toBe(true);
      expect(reply.pagination.total).toBe(requests.filter((entry) => entry['user-id'] === USERS[0]).length);
      // The url's partition is read whole for the total (its few requests), never another url's.
      expect(meter.tally().entriesCounted).toBeLessThanOrEqual(requests.length);
    } finally {
      meter.detach();
    }
  });

  it('counts entry by entry only inside the partial buckets at the ends of a range', async () => {
    const result = await cost({ send: { from: '2026-01-20T03:17:00Z', to: '2026-02-10T21:03:00Z' } });
    const inEdgeHours = entries.filter((entry) => entry.send.startsWith('2026-01-20T03') || entry.send.startsWith('2026-02-10T21')).length;
    expect(result.entriesCounted).toBeLessThanOrEqual(inEdgeHours);
  });
});
