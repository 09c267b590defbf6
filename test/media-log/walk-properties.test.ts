import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { importFeedChanges } from '../../functions/media-log/feed/import-changes';
import { MEDIA_STATUSES, STATUS_FIELDS, type MediaStatus, type StatusField } from '../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import type { Caller } from '../../functions/shared/access/roles';
import { storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';
import { scanEntries } from './feed/feed-fixture';
import { sorted } from './log-fixture';
import { listingWith, walkListing } from './walk-fixture';

/**
 * A cursor walk's promise (DESIGN.md section 4), as a property, on the product's listing against
 * DynamoDB Local: whatever the entries (their shards, owners, urls, statuses and times), the read
 * budget, the caller, the filters and the status changes made while the walk goes on (racing the
 * reads of the next page), the walk returns exactly once every entry that matches from its first
 * page to its last (held against a scan of the table), never an entry twice, only entries of the
 * caller's scope, in order; with the route's budget, a page is short only at the end of the walk.
 */

/** Owners of a run's entries: index 0 is a root user (hidden from an admin), 1 a user, 2 and 3 its subs, 4 another user. */
const OWNERS = 5;
const DAY_MS = 86_400_000;
/** Each run writes into its own twenty days, and every walk stays within them. */
const RUN_DAYS = 20;
const FIRST_RUN = Date.parse('2024-01-01T00:00:00.000Z');

const status = fc.constantFrom(...MEDIA_STATUSES);
const field = fc.constantFrom(...STATUS_FIELDS);
/** Statuses as traffic has them: mostly `success`, the rest of every value. */
const storedStatus = fc.oneof({ weight: 3, arbitrary: fc.constant<MediaStatus>('success') }, { weight: 3, arbitrary: status });
/** Mostly absent: each filter narrows the walk, and a walk worth checking returns a few pages. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

const plannedEntry = fc.record({
  owner: fc.integer({ min: 0, max: OWNERS - 1 }),
  url: fc.integer({ min: 0, max: 2 }),
  minute: fc.integer({ min: 0, max: RUN_DAYS * 24 * 60 - 1 }),
  statuses: fc.tuple(storedStatus, storedStatus, storedStatus, storedStatus),
});
type PlannedEntry = typeof plannedEntry extends fc.Arbitrary<infer T> ? T : never;

const walkPlan = fc.record({
  caller: fc.constantFrom('root', 'admin', 'user', 'sub'),
  statuses: fc.oneof(
    { weight: 2, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(fc.record({ field, values: fc.uniqueArray(status, { minLength: 1, maxLength: 3 }) }), { minLength: 1, maxLength: 2 }) },
  ),
  owners: sometimes(fc.uniqueArray(fc.integer({ min: 0, max: OWNERS - 1 }), { minLength: 1, maxLength: 3 })),
  url: sometimes(fc.integer({ min: 0, max: 2 })),
  range: sometimes(fc.tuple(fc.integer({ min: 0, max: RUN_DAYS * 24 }), fc.integer({ min: 0, max: RUN_DAYS * 24 }))),
  ascending: fc.boolean(),
  limit: fc.integer({ min: 1, max: 8 }),
  // Read units per request: from barely one Query per shard to the route's own.
  budget: fc.oneof(fc.integer({ min: 3, max: 30 }), fc.constant(200)),
  changes: fc.array(fc.record({ page: fc.integer({ min: 1, max: 6 }), entry: fc.nat(), field, value: status }), { maxLength: 8 }),
});
type WalkPlan = typeof walkPlan extends fc.Arbitrary<infer T> ? T : never;

let users: { root: TestUser; admin: TestUser; owners: TestUser[] };
let run = 0;

beforeAll(async () => {
  const root = await createTestUser({ role: 'root' });
  const admin = await createTestUser({ role: 'admin' });
  const parent = await createTestUser({ role: 'user' });
  const subs = [await createTestUser({ role: 'sub', parent: parent.record.id }), await createTestUser({ role: 'sub', parent: parent.record.id })];
  users = { root, admin, owners: [root, parent, ...subs, await createTestUser({ role: 'user' })] };
}, 60_000);

/** The caller of a walk, and the owners (by index) whose entries it may see. */
function callerOf(plan: WalkPlan): { caller: Caller; visible: readonly number[] } {
  if (plan.caller === 'root') return { caller: users.root.caller, visible: [0, 1, 2, 3, 4] };
  if (plan.caller === 'admin') return { caller: users.admin.caller, visible: [1, 2, 3, 4] };
  if (plan.caller === 'user') return { caller: (users.owners[1] as TestUser).caller, visible: [1, 2, 3] };
  return { caller: (users.owners[2] as TestUser).caller, visible: [2] };
}

function entryOf(planned: PlannedEntry, start: number, urls: readonly string[]): MediaLogEntry {
  const [overall, ffscan, mediainfo, scanReport] = planned.statuses;
  return {
    id: randomUUID(),
    send: new Date(start + planned.minute * 60_000).toISOString(),
    url: urls[planned.url] as string,
    'user-id': (users.owners[planned.owner] as TestUser).record.id,
    status: overall,
    'status-ffscan': ffscan,
    'status-mediainfo': mediainfo,
    'status-scan-report': scanReport,
  };
}

/** The query of a walk, and the predicate a scanned entry must pass to belong in it. */
function queryOf(plan: WalkPlan, start: number, urls: readonly string[]): { query: Record<string, unknown>; matches: (entry: MediaLogEntry) => boolean } {
  const hours = plan.range ? [...plan.range].sort((a, b) => a - b) : [0, RUN_DAYS * 24];
  const [from, to] = hours.map((hour) => new Date(start + (hour as number) * 3_600_000).toISOString()) as [string, string];
  const statuses = new Map<StatusField, MediaStatus[]>();
  for (const filter of plan.statuses) statuses.set(filter.field, [...new Set([...(statuses.get(filter.field) ?? []), ...filter.values])]);
  const { visible } = callerOf(plan);
  const owners = (plan.owners ?? visible).filter((owner) => visible.includes(owner)).map((owner) => (users.owners[owner] as TestUser).record.id);
  const url = plan.url === undefined ? undefined : (urls[plan.url] as string);
  const query = {
    send: { from, to },
    ...Object.fromEntries([...statuses].map(([name, values]) => [name, values.join(',')])),
    ...(plan.owners ? { 'user-id': plan.owners.map((owner) => String((users.owners[owner] as TestUser).record.id)).join(',') } : {}),
    ...(url === undefined ? {} : { url }),
    sort: { order: plan.ascending ? 'asc' : 'desc' },
  };
  const matches = (entry: MediaLogEntry) =>
    owners.includes(entry['user-id']) && entry.send >= from && entry.send <= to && (url === undefined || entry.url === url) && [...statuses].every(([name, values]) => values.includes(entry[name]));
  return { query, matches };
}

describe('a cursor walk of the media log', () => {
  it('returns every entry that matches throughout exactly once, whatever the shards, budget, filters and changes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plannedEntry, { minLength: 20, maxLength: 60 }), walkPlan, async (planned, plan) => {
        run += 1;
        const start = FIRST_RUN + run * RUN_DAYS * DAY_MS;
        const urls = [0, 1, 2].map((index) => `https://media.example.com/walks/${run}/${index}.mp4`);
        const entries = planned.map((each) => entryOf(each, start, urls));
        await storeEntries(entries);
        const { query, matches } = queryOf(plan, start, urls);
        const changed = new Set<string>();
        const changeAt = async (page: number) => {
          const now = plan.changes.filter((change) => change.page === page);
          for (const change of now) changed.add((entries[change.entry % entries.length] as MediaLogEntry).id);
          const at = new Date().toISOString();
          await importFeedChanges(now.map((change) => ({ kind: 'status' as const, id: (entries[change.entry % entries.length] as MediaLogEntry).id, field: change.field, value: change.value, at })));
        };

        const walk = await walkListing(listingWith(plan.budget), callerOf(plan).caller, query, plan.limit, changeAt);

        const ids = walk.entries.map((entry) => entry.id);
        expect(new Set(ids).size).toBe(ids.length);
        const now = (await scanEntries()).filter((entry) => entries.some((mine) => mine.id === entry.id));
        const steady = now.filter((entry) => !changed.has(entry.id));
        expect(sorted(walk.entries.filter((entry) => !changed.has(entry.id)), plan.ascending ? 'asc' : 'desc').map((entry) => entry.id)).toEqual(
          sorted(steady.filter(matches), plan.ascending ? 'asc' : 'desc').map((entry) => entry.id),
        );
        // Entries that changed during the walk: at most once, in scope, in the walk's order.
        expect(walk.entries.every((entry) => callerOf(plan).visible.some((owner) => (users.owners[owner] as TestUser).record.id === entry['user-id']))).toBe(true);
        expect(walk.entries.map((entry) => entry.id)).toEqual(sorted(walk.entries, plan.ascending ? 'asc' : 'desc').map((entry) => entry.id));
        if (plan.budget === 200) {
          // With the route's budget, a short page with a cursor only comes before the empty page that ends the walk.
          walk.pages.forEach((page, index) => {
            if (page.reply.log.length < plan.limit && page.reply.pagination.next !== null) expect(walk.pages.slice(index + 1).map((later) => later.reply.log.length)).toEqual([0]);
          });
        }
      }),
      { numRuns: 14, endOnFailure: true },
    );
  }, 900_000);
});
