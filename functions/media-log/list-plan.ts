import { comboMatcher, TOTAL_ATTRIBUTE, type CounterScope, type StatusFilter } from './counter-keys';
import { entryFilter } from './entry-filter';
import type { StreamSpec } from './entry-streams';
import { mediaLogKeys, STATUS_STORAGE } from './media-log-keys';
import type { CounterBucket } from './media-log-reader';
import type { ListingScope } from './scope';
import { STATUS_FIELDS, type MediaStatus, type StatusField } from './schemas';

/**
 * Which index partitions a listing reads. The candidates are the caller's own partitions (the
 * whole log by month, or one partition per user and month) with the status filter checked on each
 * entry, or, for each filtered status field, that status's partitions with the rest checked on each
 * entry. The month counters say how many entries each choice would read; the cheapest wins, so a
 * rare status is read from its own partitions instead of being searched for among all entries.
 */

/** A user-id condition on a status partition is one IN per 100 ids; past a few, the user partitions are the better plan anyway. */
const MAX_USERS_ON_STATUS_PARTITIONS = 100;

/** The month counters a plan is made from (months of the listing's range only). */
export interface PlanCounters {
  /** Month buckets of each scope of the listing (`ALL`, or each user). */
  readonly byScope: ReadonlyMap<CounterScope, readonly CounterBucket[]>;
  /** Month buckets of the whole log, when the status partitions may be considered. */
  readonly all?: readonly CounterBucket[];
}

/** Counts summed bucket by bucket, oldest bucket first. */
export function sumBuckets(lists: readonly (readonly CounterBucket[])[]): CounterBucket[] {
  const sums = new Map<string, Record<string, number>>();
  for (const list of lists) {
    for (const { bucket, counts } of list) {
      const sum = sums.get(bucket) ?? {};
      for (const [attribute, value] of Object.entries(counts)) sum[attribute] = (sum[attribute] ?? 0) + value;
      sums.set(bucket, sum);
    }
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([bucket, counts]) => ({ bucket, counts }));
}

/** Entries of `counts` whose statuses satisfy `filter` (all of them for an empty filter). */
export function matchingCount(counts: Readonly<Record<string, number>>, filter: StatusFilter): number {
  if (Object.keys(filter).length === 0) return counts[TOTAL_ATTRIBUTE] ?? 0;
  const matches = comboMatcher(filter);
  return Object.entries(counts).reduce((sum, [attribute, value]) => (matches(attribute) ? sum + value : sum), 0);
}

function streamOver(
  kind: StreamSpec['kind'],
  months: readonly CounterBucket[],
  partitionOf: (month: string) => string,
  matching: StatusFilter,
  candidates: (counts: Readonly<Record<string, number>>) => number,
  filter: StreamSpec['filter'],
  ascending: boolean,
): StreamSpec {
  const useful = months.filter(({ counts }) => matchingCount(counts, matching) > 0);
  const ordered = ascending ? useful : [...useful].reverse();
  return {
    kind,
    partitions: ordered.map(({ bucket }) => ({ value: partitionOf(bucket), month: bucket })),
    filter,
    expectedMatches: useful.reduce((sum, { counts }) => sum + matchingCount(counts, matching), 0),
    expectedCandidates: useful.reduce((sum, { counts }) => sum + candidates(counts), 0),
  };
}

function ownPartitions(scope: ListingScope, statuses: StatusFilter, counters: PlanCounters, ascending: boolean): StreamSpec[] {
  const filter = entryFilter({ statuses, ...(scope.kind === 'all' ? { excludeUserIds: scope.exclude } : {}) });
  const total = (counts: Readonly<Record<string, number>>) => counts[TOTAL_ATTRIBUTE] ?? 0;
  if (scope.kind === 'all') {
    return [streamOver('log', counters.byScope.get('ALL') ?? [], mediaLogKeys.log, statuses, total, filter, ascending)];
  }
  return scope.ids.map((id) =>
    streamOver('user', counters.byScope.get(`USER#${id}`) ?? [], (month) => mediaLogKeys.user(id, month), statuses, total, filter, ascending),
  );
}

function statusPartitions(field: StatusField, scope: ListingScope, statuses: StatusFilter, counters: PlanCounters, ascending: boolean): StreamSpec[] {
  const { [field]: values = [], ...others } = statuses;
  const filter = entryFilter({ statuses: others, ...(scope.kind === 'users' ? { userIds: scope.ids } : { excludeUserIds: scope.exclude }) });
  const scopeMonths = sumBuckets([...counters.byScope.values()]);
  const allMonths = new Map((counters.all ?? []).map(({ bucket, counts }) => [bucket, counts]));
  return values.map((value: MediaStatus) => {
    const candidates = (bucket: string) => matchingCount(allMonths.get(bucket) ?? {}, { [field]: [value] });
    const spec = streamOver(
      STATUS_STORAGE[field].partition,
      scopeMonths,
      (month) => mediaLogKeys.status(value, month),
      { ...others, [field]: [value] },
      () => 0,
      filter,
      ascending,
    );
    return { ...spec, expectedCandidates: spec.partitions.reduce((sum, partition) => sum + candidates(partition.month as string), 0) };
  });
}

function cost(streams: readonly StreamSpec[]): number {
  return streams.reduce((sum, stream) => sum + Math.max(stream.expectedCandidates, stream.expectedMatches), 0);
}

/** Whether the status partitions are worth weighing for this listing (and so the whole log's counters are needed). */
export function considersStatusPartitions(scope: ListingScope, statuses: StatusFilter): boolean {
  return Object.keys(statuses).length > 0 && (scope.kind === 'all' || scope.ids.length <= MAX_USERS_ON_STATUS_PARTITIONS);
}

/** The streams to merge for a listing without url or request filter: the plan that reads the fewest entries. */
export function planStreams(scope: ListingScope, statuses: StatusFilter, counters: PlanCounters, ascending: boolean): StreamSpec[] {
  let best = ownPartitions(scope, statuses, counters, ascending);
  if (!considersStatusPartitions(scope, statuses) || counters.all === undefined) return best;
  for (const field of STATUS_FIELDS) {
    if (statuses[field] === undefined) continue;
    const candidate = statusPartitions(field, scope, statuses, counters, ascending);
    if (cost(candidate) < cost(best)) best = candidate;
  }
  return best;
}
