import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import { createFeedWriters, applyFeedChanges } from '../../functions/media-log/feed/apply-changes';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import type { Caller } from '../../functions/shared/access/roles';
import { invoke } from '../harness/invoke';
import { foldLog } from '../harness/media-log';
import { createTestUser } from '../harness/users';
import { sorted } from './log-fixture';

let root: Caller;

beforeAll(async () => {
  // Routes act on the caller as stored: the listing's caller is a real root user.
  root = (await createTestUser({ role: 'root' })).caller;
});
const sample = (seed: number, count: number) =>
  sampleMediaLogEntries(count, { userIds: [31, 32, 33], start: new Date('2025-03-01T00:00:00Z'), spanMs: 3 * 86_400_000, seed });

let entries: MediaLogEntry[];

beforeAll(async () => {
  const first = sample(1, 250);
  const second = sample(2, 250);
  const third = sample(3, 100);
  // The import's batches on an empty log, folded; the feed's one put per request on top of it; the
  // import again, with a repeat of the first entries; one fold over the rest: one set of counters.
  await writeMediaLogEntries(first);
  await foldLog();
  const fed = await applyFeedChanges(createFeedWriters(getDocumentClient()), second.map((entry) => ({ kind: 'entry' as const, entry })));
  expect(fed.every((result) => result.outcome === 'applied')).toBe(true);
  await writeMediaLogEntries([...third, ...first.slice(0, 20)]);
  await foldLog();
  entries = [...first, ...second, ...third];
}, 240_000);

describe('entries written by the import and the feed, counted by the fold', () => {
  it.each([
    ['', () => true],
    ['status=error,warning', (entry: MediaLogEntry) => ['error', 'warning'].includes(entry.status)],
    ['user-id=32', (entry: MediaLogEntry) => entry['user-id'] === 32],
    ['status-scan-report=success&user-id=31,33', (entry: MediaLogEntry) => entry['status-scan-report'] === 'success' && entry['user-id'] !== 32],
    ['send[from]=2025-03-01T05:30:00Z&send[to]=2025-03-02T17:45:00Z', (entry: MediaLogEntry) => entry.send >= '2025-03-01T05:30:00.000Z' && entry.send <= '2025-03-02T17:45:00.000Z'],
  ])('has exact totals and pages (%s)', async (query, keep) => {
    const expected = sorted(entries.filter(keep));
    const response = await invoke('listMediaLog', { caller: root, query: `${query}&pagination[limit]=100` });
    expect(response.body.pagination.total).toBe(expected.length);
    expect(response.body.log).toEqual(expected.slice(0, 100));
  });

  it('locates a deep page from the folded counters', async () => {
    const response = await invoke('listMediaLog', { caller: root, query: 'pagination[limit]=7&pagination[page]=40' });
    expect(response.body.log).toEqual(sorted(entries).slice(273, 280));
  });
});
