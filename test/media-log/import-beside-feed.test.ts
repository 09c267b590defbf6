import { applyFeedChanges, createFeedWriters } from '../../functions/media-log/feed/apply-changes';
import type { FeedChange } from '../../functions/media-log/feed/feed-messages';
import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import { STATUS_FIELDS } from '../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import type { Caller } from '../../functions/shared/access/roles';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { foldLog } from '../harness/media-log';
import { createTestUser } from '../harness/users';
import { filtersOf, listLog, scanEntries } from './feed/feed-fixture';

/**
 * An import is exact while the feed runs: `media-log import`'s writes and the queue consumer's
 * (new requests, status changes of entries the import is writing and of entries already there,
 * requests the import also carries) interleave on the same table, and once folded every total, for
 * the whole log, each user and each status filter, equals what a scan of the stored entries gives.
 */

const USERS = [91_001, 91_002, 91_003];
const sample = (seed: number, count: number) => sampleMediaLogEntries(count, { userIds: USERS, start: new Date('2026-02-01T00:00:00Z'), spanMs: 20 * 86_400_000, seed });
const later = (entry: MediaLogEntry, seconds: number) => new Date(Date.parse(entry.send) + seconds * 1000).toISOString();

/** Each field of `entry` to processing, then to error or success: the pipeline's messages for it. */
function statusChanges(entry: MediaLogEntry, index: number): FeedChange[] {
  return STATUS_FIELDS.flatMap((field, position): FeedChange[] => [
    { kind: 'status', id: entry.id, field, value: 'processing', at: later(entry, 1 + position) },
    { kind: 'status', id: entry.id, field, value: (index + position) % 3 === 0 ? 'error' : 'success', at: later(entry, 10 + position) },
  ]);
}

let root: Caller;

beforeAll(async () => {
  root = (await createTestUser({ role: 'root' })).caller;
  const stored = sample(71, 120);
  const imported = sample(72, 400);
  const fed = sample(73, 120);
  await writeMediaLogEntries(stored);
  await foldLog();

  // The feed: new requests (some also in the import), and status changes of stored entries.
  const feed: FeedChange[] = [
    ...fed.map((entry): FeedChange => ({ kind: 'entry', entry })),
    ...imported.slice(0, 30).map((entry): FeedChange => ({ kind: 'entry', entry })),
    ...stored.flatMap(statusChanges),
  ];
  const writers = createFeedWriters(getDocumentClient());
  const feedRun = (async () => {
    for (let start = 0; start < feed.length; start += 10) {
      const results = await applyFeedChanges(writers, feed.slice(start, start + 10));
      // A request the import stored first is `ignored`: stored once, whoever came first.
      expect(results.filter((result) => result.outcome !== 'applied' && result.outcome !== 'ignored')).toEqual([]);
    }
  })();
  // The import at the same time, in batches as the CLI sends them; then the statuses of the
  // imported entries through the feed, once the import has written them.
  await Promise.all([writeMediaLogEntries(imported), feedRun]);
  const followUps = imported.slice(0, 60).flatMap(statusChanges);
  expect((await applyFeedChanges(writers, followUps)).every((result) => result.outcome === 'applied')).toBe(true);
  await foldLog();
}, 240_000);

describe('an import while the feed runs', () => {
  it('stores each entry once, with the statuses the feed set', async () => {
    const entries = (await scanEntries()).filter((entry) => USERS.includes(entry['user-id']));
    expect(entries).toHaveLength(120 + 400 + 120);
    expect(new Set(entries.map((entry) => entry.id)).size).toBe(entries.length);
    expect(entries.filter((entry) => STATUS_FIELDS.every((field) => ['error', 'success'].includes(entry[field]))).length).toBeGreaterThanOrEqual(180);
  });

  it('counts exactly: every total equals a scan of the stored entries', async () => {
    const entries = (await scanEntries()).filter((entry) => USERS.includes(entry['user-id']));
    const scopes = USERS.map((user) => ({ query: `user-id=${user}`, of: entries.filter((entry) => entry['user-id'] === user) }));
    for (const { query, of } of scopes) {
      expect((await listLog(root, query, false)).total).toBe(of.length);
      for (const { field, value } of filtersOf(of)) {
        expect([query, field, value, (await listLog(root, `${query}&${field}=${value}`, false)).total]).toEqual([query, field, value, of.filter((entry) => entry[field] === value).length]);
      }
    }
    expect((await listLog(root, `user-id=${USERS.join(',')}`, false)).total).toBe(entries.length);
  });
});
