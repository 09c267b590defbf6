import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { COUNT_READ_BUDGET } from '../../functions/shared/listing/pagination';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';
import { invoke } from '../harness/invoke';
import { sorted, walkCursor } from './log-fixture';

/**
 * A url keeps no counters: a url listing counts the url's own partition within the count budget.
 * A url requested more often than the budget reads still lists every request, page by page and by
 * cursor, and says its total is a lower bound; a time range of it within the budget is exact again.
 */

const URL = 'https://media.example.com/videos/popular.mp4';
const REQUESTS = COUNT_READ_BUDGET + 60;
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
    expect(body.pagination.total).toBeGreaterThanOrEqual(COUNT_READ_BUDGET - 100);
    expect(body.pagination.total).toBeLessThan(REQUESTS);
    expect(body.log).toEqual(sorted(entries).slice(0, 100));
    expect(body.pagination.next).toEqual(expect.any(String));
  });

  it('still reaches a deep page by number, past what the total counted', async () => {
    const body = await page(root.token, `url=${encodeURIComponent(URL)}&pagination[limit]=100&pagination[page]=21`);
    expect(body.log).toEqual(sorted(entries).slice(2000, 2100));
  });

  it('is exact again for a time range of the same url that holds fewer requests than the budget', async () => {
    const range = { from: '2026-03-01T01:00:00.000Z', to: '2026-03-01T03:00:00.000Z' };
    const mine = entries.filter((entry) => entry['user-id'] === owner.record.id && entry.status === 'error' && entry.send >= range.from && entry.send <= range.to);
    const walk = await walkCursor(owner.token, `url=${encodeURIComponent(URL)}&status=error&send[from]=${range.from}&send[to]=${range.to}`, 20);
    expect(mine.length).toBeGreaterThan(20);
    expect(walk.entries).toEqual(sorted(mine));
    expect(new Set(walk.pages.map((response) => response.body.pagination['total-exact']))).toEqual(new Set([true]));
    expect(new Set(walk.totals)).toEqual(new Set([mine.length]));
  }, 60_000);
});
