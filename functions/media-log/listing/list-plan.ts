import { keyBefore, type KeyWindow } from '../../shared/listing/key-window';
import type { IndexPartition, ItemFilter, SortedStream } from '../../shared/listing/merge-reader';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, type MediaLogPartitionKind } from '../../shared/tables/media-log-table';
import { matchingCount, TOTAL_ATTRIBUTE, type StatusFilter } from '../model/counters';
import { mediaLogKeys, scopePartition, STATUS_STORAGE, type CounterScope } from '../model/keys';
import { STATUS_FIELDS, type MediaStatus, type StatusField } from '../model/entry-fields';
import { bucketEnd, bucketStart } from '../model/time-buckets';
import type { CounterBucket } from './index-reader';
import { entryFilter, MAX_IN_OPERANDS } from './entry-filter';
import type { CountedScopes, ListingScope } from './listing-scope';

/**
 * Which index partitions a listing reads. The candidates are the listing's own partitions (one
 * stream per counted scope, walking its months) with the status filter checked on each entry, or,
 * for each filtered status field, that status's partitions with the rest checked on each entry. The
 * month counters say how many entries each choice would read; the cheapest wins, so a rare status
 * is read from its own partitions instead of being searched for among all entries.
 */

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

/** What a plan is made from. */
export interface PlanInput {
  readonly listing: ListingScope;
  readonly scopes: CountedScopes;
  readonly statuses: StatusFilter;
  /** Month buckets of each counted scope (months of the listing's range only). */
  readonly months: ReadonlyMap<CounterScope, readonly CounterBucket[]>;
  /** Month buckets of the whole log, when the status partitions may be weighed. */
  readonly allMonths?: readonly CounterBucket[];
  readonly ascending: boolean;
}

/** The send keys a month's partition can hold. */
function monthSpan(month: string): KeyWindow {
  return { lo: bucketStart(month), hi: keyBefore(bucketEnd('month', month)) };
}

function indexPartition(kind: MediaLogPartitionKind, value: string, month: string): IndexPartition {
  return { indexName: mediaLogIndexName(kind), attribute: MEDIA_LOG_ATTRIBUTES.partition[kind], value, span: monthSpan(month) };
}

function streamOver(
  months: readonly CounterBucket[],
  partitionOf: (month: string) => IndexPartition,
  matching: StatusFilter,
  candidates: (counts: Readonly<Record<string, number>>) => number,
  filter: ItemFilter | undefined,
  ascending: boolean,
): SortedStream {
  const useful = months.filter(({ counts }) => matchingCount(counts, matching) > 0);
  const ordered = ascending ? useful : [...useful].reverse();
  return {
    partitions: ordered.map(({ bucket }) => partitionOf(bucket)),
    ...(filter ? { filter } : {}),
    expectedMatches: useful.reduce((sum, { counts }) => sum + matchingCount(counts, matching), 0),
    expectedCandidates: useful.reduce((sum, { counts }) => sum + candidates(counts), 0),
  };
}

/** The user ids a counted scope is hidden for (an admin's root users), for the filter. */
function hiddenIds(input: PlanInput): number[] {
  return input.listing.kind === 'all' ? [...input.listing.exclude] : [];
}

function ownPartitions(input: PlanInput): SortedStream[] {
  const excluded = hiddenIds(input);
  const filter = entryFilter({ statuses: input.statuses, ...(excluded.length > 0 ? { excludeUserIds: excluded } : {}) });
  const total = (counts: Readonly<Record<string, number>>) => counts[TOTAL_ATTRIBUTE] ?? 0;
  return input.scopes.counted.map((scope) =>
    streamOver(input.months.get(scope) ?? [], (month) => {
      const { kind, value } = scopePartition(scope, month);
      return indexPartition(kind, value, month);
    }, input.statuses, total, filter, input.ascending),
  );
}

function statusPartitions(field: StatusField, input: PlanInput): SortedStream[] {
  const { [field]: values = [], ...others } = input.statuses;
  const users = input.listing.kind === 'users' ? { userIds: input.listing.ids } : { excludeUserIds: hiddenIds(input) };
  const filter = entryFilter({ statuses: others, ...users });
  const scopeMonths = sumBuckets([...input.months.values()]);
  const allMonths = new Map((input.allMonths ?? []).map(({ bucket, counts }) => [bucket, counts]));
  return values.map((value: MediaStatus) => {
    const candidates = (bucket: string) => matchingCount(allMonths.get(bucket) ?? {}, { [field]: [value] });
    const kind = STATUS_STORAGE[field].partition;
    const spec = streamOver(scopeMonths, (month) => indexPartition(kind, mediaLogKeys.status(value), month), { ...others, [field]: [value] }, () => 0, filter, input.ascending);
    // A status partition spans all months: read it once, within the page's window.
    const partitions = spec.partitions.length === 0 ? [] : [{ indexName: mediaLogIndexName(kind), attribute: MEDIA_LOG_ATTRIBUTES.partition[kind], value: mediaLogKeys.status(value) }];
    const months = input.ascending ? [...scopeMonths] : [...scopeMonths].reverse();
    const expectedCandidates = months.filter(({ counts }) => matchingCount(counts, { ...others, [field]: [value] }) > 0).reduce((sum, { bucket }) => sum + candidates(bucket), 0);
    return { ...spec, partitions, expectedCandidates };
  });
}

function cost(streams: readonly SortedStream[]): number {
  return streams.reduce((sum, stream) => sum + Math.max(stream.expectedCandidates ?? 0, stream.expectedMatches ?? 0), 0);
}

/**
 * Whether the status partitions are worth weighing for this listing (and so the whole log's
 * counters are needed): a status filter and a user set small enough for one IN on the status
 * partitions. (A url listing reads its url's one partition: url-listing.ts.)
 */
export function considersStatusPartitions(input: Pick<PlanInput, 'listing' | 'statuses'>): boolean {
  return Object.keys(input.statuses).length > 0 && (input.listing.kind === 'all' || input.listing.ids.length <= MAX_IN_OPERANDS);
}

/** The streams to merge for a listing without a request filter: the plan that reads the fewest entries. */
export function planStreams(input: PlanInput): SortedStream[] {
  let best = ownPartitions(input);
  if (!considersStatusPartitions(input) || input.allMonths === undefined) return best;
  for (const field of STATUS_FIELDS) {
    if (input.statuses[field] === undefined) continue;
    const candidate = statusPartitions(field, input);
    if (cost(candidate) < cost(best)) best = candidate;
  }
  return best;
}
