import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { MEDIA_STATUSES, STATUS_FIELDS, type MediaStatus, type StatusField } from '../../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';
import type { Caller } from '../../../functions/shared/access/roles';
import { createTestUser } from '../../harness/users';
import { sorted } from '../log-fixture';
import { deliver, failedBodies, filtersOf, listLog, requestMessage, scanEntries, statusMessage } from './feed-fixture';
import { ChaoticFold, foldDelivery } from './fold-chaos';
import { foldLog } from '../../harness/media-log';

/**
 * The feed's and the fold's promise (DESIGN.md sections 7a and 7b), as a property: whatever the
 * delivery of the messages (shuffled, duplicated, cut into random batches, some batches at once,
 * failures redelivered as SQS does), the stored entries are those of the in-order result; and
 * whatever the delivery of the stream's records to the fold (random batches, redelivered, crashed
 * mid-batch and retried, bisected, an old batch again at the end), once the stream is drained every
 * listing and total, for every scope and status filter, equals what a full scan of the stored
 * entries gives.
 */

const START = Date.parse('2026-01-28T00:00:00.000Z');
const URLS = ['https://media.example.com/one.mp4', 'https://media.example.com/two.mp4'] as const;

interface PlannedEntry {
  readonly user: number;
  readonly url: number;
  /** Minutes after START: up to 40 days, so months, days and hours all have counters. */
  readonly sendMinutes: number;
  readonly initial: Partial<Record<StatusField, MediaStatus>>;
  /** Status changes: field, value, seconds after send (ties on purpose: few distinct seconds). */
  readonly changes: readonly { field: StatusField; value: MediaStatus; afterSeconds: number }[];
}

const status = fc.constantFrom(...MEDIA_STATUSES);
const field = fc.constantFrom(...STATUS_FIELDS);
const plannedEntry: fc.Arbitrary<PlannedEntry> = fc.record({
  user: fc.integer({ min: 0, max: 1 }),
  url: fc.integer({ min: 0, max: 1 }),
  sendMinutes: fc.integer({ min: 0, max: 40 * 24 * 60 }),
  initial: fc.record({ status, 'status-ffscan': status, 'status-mediainfo': status, 'status-scan-report': status }, { requiredKeys: [] }),
  changes: fc.array(fc.record({ field, value: status, afterSeconds: fc.integer({ min: 1, max: 4 }) }), { maxLength: 5 }),
});

/** How the messages travel: an order key per message, which ones come twice, where batches end, which run at once. */
const delivery = fc.record({
  orderKeys: fc.array(fc.integer(), { minLength: 40, maxLength: 40 }),
  duplicated: fc.array(fc.integer({ min: 0, max: 39 }), { maxLength: 8 }),
  cuts: fc.array(fc.integer({ min: 1, max: 39 }), { maxLength: 6 }),
  concurrent: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
});
/** A generated delivery. */
interface Delivery {
  readonly orderKeys: readonly number[];
  readonly duplicated: readonly number[];
  readonly cuts: readonly number[];
  readonly concurrent: readonly boolean[];
}

let root: Caller;
let run = 0;
const chaoticFold = new ChaoticFold();

beforeAll(async () => {
  root = (await createTestUser({ role: 'root' })).caller;
});

/** The in-order result: each field holds the latest change (`at`, then value), the request's value from its send time. */
function expectedEntry(id: string, users: readonly number[], planned: PlannedEntry): MediaLogEntry {
  const send = new Date(START + planned.sendMinutes * 60_000).toISOString();
  const entry: MediaLogEntry = {
    id,
    send,
    url: URLS[planned.url] as string,
    'user-id': users[planned.user] as number,
    status: planned.initial.status ?? 'pending',
    'status-ffscan': planned.initial['status-ffscan'] ?? 'pending',
    'status-mediainfo': planned.initial['status-mediainfo'] ?? 'pending',
    'status-scan-report': planned.initial['status-scan-report'] ?? 'pending',
  };
  const latest = new Map<StatusField, { at: number; value: MediaStatus }>();
  for (const change of planned.changes) {
    const current = latest.get(change.field);
    if (!current || change.afterSeconds > current.at || (change.afterSeconds === current.at && change.value > current.value)) {
      latest.set(change.field, { at: change.afterSeconds, value: change.value });
    }
  }
  for (const [changed, { value }] of latest) entry[changed] = value;
  return entry;
}

/** The messages of a plan: each request, then each of its changes. */
function messagesOf(ids: readonly string[], users: readonly number[], plan: readonly PlannedEntry[]): object[] {
  return plan.flatMap((planned, index) => {
    const id = ids[index] as string;
    const send = START + planned.sendMinutes * 60_000;
    return [
      requestMessage({ id, send: new Date(send).toISOString(), url: URLS[planned.url] as string, 'user-id': users[planned.user] as number, ...planned.initial }),
      ...planned.changes.map((change) => statusMessage(id, change.field, change.value, new Date(send + change.afterSeconds * 1000).toISOString())),
    ];
  });
}

/** Shuffle, duplicate and cut the messages into batches; consecutive batches marked concurrent run at once. */
function batchesOf(messages: readonly string[], plan: Delivery): string[][][] {
  const order = messages.map((body, index) => ({ body, key: plan.orderKeys[index % plan.orderKeys.length] as number, index }));
  order.sort((a, b) => a.key - b.key || a.index - b.index);
  const bodies = order.map(({ body }) => body);
  for (const index of plan.duplicated) if (index < bodies.length) bodies.splice(index, 0, bodies[index] as string);
  const cuts = [...new Set(plan.cuts.filter((cut) => cut < bodies.length))].sort((a, b) => a - b);
  const batches = [0, ...cuts].map((from, index) => bodies.slice(from, cuts[index] ?? bodies.length)).filter((batch) => batch.length > 0);
  const groups: string[][][] = [];
  batches.forEach((batch, index) => {
    const last = groups[groups.length - 1];
    if (last && plan.concurrent[index % plan.concurrent.length]) last.push(batch);
    else groups.push([batch]);
  });
  return groups;
}

/** Deliver every group, its batches at once; what a batch reports failed comes again in a later round, as SQS redelivers it. */
async function deliverAll(groups: string[][][]): Promise<void> {
  let pending = groups;
  for (let round = 1; pending.length > 0; round += 1) {
    if (round > 6) throw new Error(`Messages still failing after 6 deliveries: ${JSON.stringify(pending)}`);
    const retry: string[] = [];
    for (const group of pending) {
      const results = await Promise.all(group.map((batch) => deliver(batch)));
      for (const { response, records } of results) retry.push(...failedBodies(response, records));
    }
    pending = retry.length === 0 ? [] : [[retry]];
  }
}

/** Every listing the checks compare: whole log, per user, per url, each with every status filter. */
async function checkListings(all: readonly MediaLogEntry[], users: readonly number[], fold: boolean): Promise<void> {
  const scopes: { query: string; entries: MediaLogEntry[] }[] = [
    { query: '', entries: [...all] },
    ...users.map((user) => ({ query: `user-id=${user}`, entries: all.filter((entry) => entry['user-id'] === user) })),
    ...URLS.map((url) => ({ query: `url=${encodeURIComponent(url)}`, entries: all.filter((entry) => entry.url === url) })),
  ];
  for (const scope of scopes) {
    const joined = (extra: string) => [scope.query, extra].filter((part) => part !== '').join('&');
    if (scope.query !== '') {
      const page = await listLog(root, joined('pagination[limit]=100'), fold);
      expect(page.log).toEqual(sorted(scope.entries));
      expect(page.total).toBe(scope.entries.length);
    }
    for (const filter of filtersOf(scope.entries)) {
      const count = scope.entries.filter((entry) => entry[filter.field] === filter.value).length;
      expect({ ...filter, scope: scope.query, total: (await listLog(root, joined(`${filter.field}=${filter.value}&pagination[limit]=1`), fold)).total }).toEqual({ ...filter, scope: scope.query, total: count });
    }
  }
}

describe('the pipeline feed and the fold, delivered any way', () => {
  it('ends in the in-order result, with every listing and total equal to a full scan', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plannedEntry, { minLength: 1, maxLength: 5 }), delivery, foldDelivery, async (plan, how, foldHow) => {
        run += 1;
        const users = [20_000 + run * 2, 20_001 + run * 2];
        const ids: string[] = plan.map(() => randomUUID());
        const bodies = messagesOf(ids, users, plan).map((message) => JSON.stringify(message));
        await deliverAll(batchesOf(bodies, how));

        const stored = await scanEntries();
        const mine = stored.filter((entry) => ids.includes(entry.id));
        expect(sorted(mine)).toEqual(sorted(plan.map((planned, index) => expectedEntry(ids[index] as string, users, planned))));
        // The counters as the chaotic delivery left them; then after the stream is read once more
        // and every record of it delivered again (the totals of each scope must not move).
        await chaoticFold.run(foldHow);
        await checkListings(stored, users, false);
        await foldLog();
        for (const query of ['', ...users.map((user) => `user-id=${user}`)]) {
          const expected = query === '' ? stored.length : stored.filter((entry) => `user-id=${entry['user-id']}` === query).length;
          expect({ query, total: (await listLog(root, [query, 'pagination[limit]=1'].filter(Boolean).join('&'), false)).total }).toEqual({ query, total: expected });
        }
      }),
      { numRuns: 10, endOnFailure: true },
    );
  }, 600_000);
});
