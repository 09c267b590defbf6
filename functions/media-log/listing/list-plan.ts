import type { IndexPartition } from '../../shared/listing/index-partition';
import type { SortedStream } from '../../shared/listing/merge-reader';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, type MediaLogPartitionKind } from '../../shared/tables/media-log-table';
import { matchingCount, TOTAL_ATTRIBUTE } from '../model/counters';
import { isIndexedStatus, STATUS_FIELDS, type IndexedStatus, type StatusField } from '../model/entry-fields';
import { mediaLogKeys, STATUS_STORAGE, type CounterScope } from '../model/keys';
import { allShards, SHARDS } from '../model/shards';
import { filtersStatuses, indexFilter, MAX_IN_OPERANDS } from './entry-filter';
import type { CounterBucket } from './index-reads';
import type { MonthCounters, ResolvedListing } from './resolved-listing';

/**
 * Which index partitions a listing reads. The candidates are the listing's own partitions (the
 * shards of each counted scope) with the statuses checked on the entries
 * read, or, for a filtered status field whose values all have index items, those values' shards
 * with the rest checked. The month counters say what each choice would read; the cheaper wins, so
 * a rare status is read from its own partitions instead of being searched for among all entries.
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

/** A partition of a listing index. */
export function indexPartition(kind: MediaLogPartitionKind, value: string): IndexPartition {
  return { indexName: mediaLogIndexName(kind), attribute: MEDIA_LOG_ATTRIBUTES.partition[kind], value };
}

/** The partition of one shard of a counted scope (all time: a page's window bounds it). */
export function scopePartition(scope: CounterScope, shard: number): IndexPartition {
  return scope.kind === 'all' ? indexPartition('log', mediaLogKeys.log(shard)) : indexPartition('user', mediaLogKeys.user(scope.userId, shard));
}

/** The shards of a counted scope's partitions. */
export function scopeShards(scope: CounterScope): number[] {
  return allShards(scope.kind === 'all' ? SHARDS.log : SHARDS.user);
}

/** The user ids a listing of everyone hides (an admin's root users), for the index filter. */
function hiddenIds(listing: ResolvedListing): number[] {
  return listing.scope.kind === 'all' ? [...listing.scope.exclude] : [];
}

/** The streams of the listing's own partitions: per counted scope with matches in the range, one per shard. */
function ownPartitions(listing: ResolvedListing, counters: MonthCounters): SortedStream[] {
  const excluded = hiddenIds(listing);
  const filter = indexFilter(excluded.length > 0 ? { excludeUserIds: excluded } : {});
  const checked = filtersStatuses(listing.statuses);
  return listing.counted.counted.flatMap((scope) => {
    const months = counters.of(scope);
    const shards = scopeShards(scope);
    const matches = months.reduce((sum, { counts }) => sum + matchingCount(counts, listing.statuses), 0);
    const candidates = months.reduce((sum, { counts }) => sum + (counts[TOTAL_ATTRIBUTE] ?? 0), 0);
    if (matches === 0) return [];
    return shards.map((shard) => ({
      partitions: [scopePartition(scope, shard)],
      ...(filter ? { filter } : {}),
      expectedMatches: matches / shards.length,
      expectedCandidates: candidates / shards.length,
      checked,
    }));
  });
}

/** The streams of a filtered status field's values: every shard of each value, over all time, the rest checked on the entries. */
function statusPartitions(field: StatusField, values: readonly IndexedStatus[], listing: ResolvedListing, counters: MonthCounters): SortedStream[] {
  const { [field]: _field, ...others } = listing.statuses;
  const users = listing.scope.kind === 'users' ? { userIds: listing.scope.ids } : { excludeUserIds: hiddenIds(listing) };
  const filter = indexFilter(users);
  const scopeMonths = sumBuckets(listing.counted.counted.map((scope) => counters.of(scope)));
  const wholeLog = listing.scope.kind === 'all' ? scopeMonths : (counters.wholeLog ?? []);
  const index = STATUS_STORAGE[field].index;
  return values.flatMap((value) => {
    const matches = scopeMonths.reduce((sum, { counts }) => sum + matchingCount(counts, { ...others, [field]: [value] }), 0);
    // The value's partitions hold every user's entries: candidates are the whole log's entries with that value.
    const candidates = wholeLog.reduce((sum, { counts }) => sum + matchingCount(counts, { [field]: [value] }), 0);
    if (matches === 0) return [];
    const shards = mediaLogKeys.statusShards(value);
    return shards.map((partition) => ({
      partitions: [indexPartition(index, partition)],
      ...(filter ? { filter } : {}),
      expectedMatches: matches / shards.length,
      expectedCandidates: candidates / shards.length,
      checked: filtersStatuses(others),
    }));
  });
}

/** Read units of one Query whatever it returns, of an index item, and of an entry read by key (eventually consistent, under 4 KB). */
const QUERY_UNITS = 0.5;
const INDEX_ITEM_UNITS = 150 / 8192;
const ENTRY_UNITS = 0.5;

/**
 * What a page of `take` entries costs in read units with these streams: a Query per stream, the
 * index items read for the page's share of each (candidates per match), and the entries read by
 * key (every candidate of a checked stream, the matches of the others).
 */
function pageCost(streams: readonly SortedStream[], take: number): number {
  const matches = Math.max(1, streams.reduce((sum, stream) => sum + (stream.expectedMatches ?? 0), 0));
  return streams.reduce((sum, stream) => {
    const share = (take * (stream.expectedMatches ?? 0)) / matches;
    const perMatch = Math.max(1, (stream.expectedCandidates ?? 0) / Math.max(1e-9, stream.expectedMatches ?? 0));
    return sum + QUERY_UNITS + share * perMatch * INDEX_ITEM_UNITS + share * (stream.checked === true ? perMatch : 1) * ENTRY_UNITS;
  }, 0);
}

/**
 * Whether the status partitions are worth weighing for this listing (and so the whole log's
 * counters are needed): a status filter on a field whose values all have index items, and a user
 * set small enough for one IN on the status partitions. (A url listing reads its url's one
 * partition: url-listing.ts.)
 */
export function considersStatusPartitions(listing: Pick<ResolvedListing, 'scope' | 'statuses'>): boolean {
  const indexable = STATUS_FIELDS.some((field) => listing.statuses[field]?.every(isIndexedStatus) === true);
  return indexable && (listing.scope.kind === 'all' || listing.scope.ids.length <= MAX_IN_OPERANDS);
}

/** The streams to merge for a listing without a request or url filter: the plan that costs a page the fewest read units. */
export function planStreams(listing: ResolvedListing, counters: MonthCounters): SortedStream[] {
  let best = ownPartitions(listing, counters);
  if (!considersStatusPartitions(listing) || (listing.scope.kind === 'users' && counters.wholeLog === undefined)) return best;
  const take = Math.max(1, listing.page.limit);
  for (const field of STATUS_FIELDS) {
    const values = listing.statuses[field];
    if (values === undefined || !values.every(isIndexedStatus)) continue;
    const candidate = statusPartitions(field, values as readonly IndexedStatus[], listing, counters);
    if (pageCost(candidate, take) < pageCost(best, take)) best = candidate;
  }
  return best;
}
