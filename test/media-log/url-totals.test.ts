import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { INDEX_ITEM_UNITS, URL_COUNT_READ_UNITS } from '../../functions/media-log/listing/read-costs';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';
import { invoke } from '../harness/invoke';
import { sorted, walkCursor } from './log-fixture';

/**
 * A url keeps no counters: a url listing counts the url's own partition within its count budget.
 * A url requested more often than the budget reads still lists every request, page by page and by
 * cursor, and says its total is a lower bound; a time range of it within the budget is exact again.
 */

const URL = 'https://media.example.com/videos/popular.mp4';
/** Index items the count can read at least: its budget, less a Query's half unit, at the largest item size. */
const COUNTABLE = Math.floor((URL_COUNT_READ_UNITS - 0.5) / INDEX_ITEM_UNITS);
const REQUESTS = 2400;
let root: TestUser;
let owner: TestUser;
let entries: MediaLogEntry[];

beforeAll(async () => {
  root = await createTestUser({ role: 'root' });
  owner = await createTestUser({ role: 'user' });
  const other = await createTestUser({ role: 'user' });
  entries = sampleMediaLogEntries(REQUESTS, { userIds: [owner.record.id, other.record.id], start: new Date('2026-03-01T00:00:00Z'), spanMs: 6 * 3_600_000, seed: 21 }).map((entry) => ({ ...entry, url: URL }));
  await storeEntries(entries);
}, 300_000);

async function page(token: string, query: string) {
  const response = await invoke('listMediaLog', { token, query });
  expect(response.status).toBe(200);
  return response.body;
}

describe('the total of a url listing', () => {
  it('is a lower bound, said so, when the url has more requests than the count budget reads', async () => {
    const body = await page(root.token, `url=${encodeURIComponent(URL)}&pagination[limit]=100`);
    expect(body.pagination['total-exact']).toBe(false);
    expect(REQUESTS).toBeGreaterThan(COUNTABLE * 1.25);
    expect(body.pagination.total).toBeGreaterThanOrEqual(COUNTABLE);
    expect(body.pagination.total).toBeLessThan(REQUESTS);
    expect(body.log).toEqual(sorted(entries).slice(0, 100));
    expect(body.pagination.next).toEqual(expect.any(String));
  });

  it('still reaches a deep page by number, past what the total counted', async () => {
    const body = await page(root.token, `url=${encodeURIComponent(URL)}&pagination[limit]=100&pagination[page]=23`);
    expect(body.log).toEqual(sorted(entries).slice(2200, 2300));
  });

  it('is exact again for a time range of the same url whose requests fit in the budget, a status filter included', async () => {
    // A status is known only from the entries: the count reads each of the owner's requests in the range by key (half a unit each).
    const range = { from: '2026-03-01T01:00:00.000Z', to: '2026-03-01T01:10:00.000Z' };
    const owners = entries.filter((entry) => entry['user-id'] === owner.record.id && entry.send >= range.from && entry.send <= range.to);
    const byStatus = new Map<string, MediaLogEntry[]>();
    for (const entry of owners) byStatus.set(entry.status, [...(byStatus.get(entry.status) ?? []), entry]);
    const [status, mine] = [...byStatus.entries()].sort((a, b) => b[1].length - a[1].length)[0] as [string, MediaLogEntry[]];
    expect(owners.length * 0.5).toBeLessThan(URL_COUNT_READ_UNITS - 2);
    expect(mine.length).toBeGreaterThan(5);
    const walk = await walkCursor(owner.token, `url=${encodeURIComponent(URL)}&status=${status}&send[from]=${range.from}&send[to]=${range.to}`, 5);
    expect(walk.entries).toEqual(sorted(mine));
    expect(new Set(walk.pages.map((response) => response.body.pagination['total-exact']))).toEqual(new Set([true]));
    expect(new Set(walk.totals)).toEqual(new Set([mine.length]));
  }, 60_000);
});
