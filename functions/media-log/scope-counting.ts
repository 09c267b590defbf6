import { ALL_COUNTER_SHARDS, COUNTER_LEVELS, TOTAL_ATTRIBUTE, userScope, type CounterScope, type StatusFilter } from './counter-keys';
import { entryFilter } from './entry-filter';
import { sumBuckets, matchingCount } from './list-plan';
import { bucketOf, mediaLogKeys } from './media-log-keys';
import type { CounterBucket, MediaLogReader, PartitionWindow, ReadStats } from './media-log-reader';
import type { CountingSource } from './range-counts';
import type { ListingScope } from './scope';

/** The counter scopes of a listing scope: the whole log, or each user. */
export function counterScopesOf(scope: ListingScope): CounterScope[] {
  return scope.kind === 'all' ? ['ALL'] : scope.ids.map(userScope);
}

/**
 * The {@link CountingSource} of a listing: the counters of its scopes summed, its status filter,
 * and partial buckets counted in the scopes' own partitions (the whole log's month partition, or
 * each user's that has entries that month).
 */
export function scopeCounting(
  reader: MediaLogReader,
  scope: ListingScope,
  statuses: StatusFilter,
  months: ReadonlyMap<CounterScope, readonly CounterBucket[]>,
  stats: ReadStats,
): CountingSource {
  const scopes = counterScopesOf(scope);
  const levels = scope.kind === 'all' ? COUNTER_LEVELS.all : COUNTER_LEVELS.user;
  const topBuckets = sumBuckets([...months.values()]);
  const filter = entryFilter({ statuses });

  const windowsIn = (month: string): Omit<PartitionWindow, 'lo' | 'hi'>[] => {
    if (scope.kind === 'all') return [{ kind: 'log', partition: mediaLogKeys.log(month), filter }];
    return scope.ids
      .filter((id) => months.get(userScope(id))?.some((bucket) => bucket.bucket === month && matchingCount(bucket.counts, statuses) > 0))
      .map((id) => ({ kind: 'user' as const, partition: mediaLogKeys.user(id, month), filter }));
  };

  return {
    levels,
    async buckets(level, parent, first, last) {
      if (level === 0) {
        return topBuckets.filter(({ bucket }) => (first === undefined || bucket >= first) && (last === undefined || bucket <= last));
      }
      const size = levels[level];
      if (size === undefined) return [];
      const lists = await Promise.all(scopes.map((counterScope) => reader.counterBuckets(counterScope, size, parent, { first, last }, stats)));
      return sumBuckets(lists);
    },
    matching: (counts) => matchingCount(counts, statuses),
    entries: (counts) => counts[TOTAL_ATTRIBUTE] ?? 0,
    counterItemsPerBucket: scope.kind === 'all' ? ALL_COUNTER_SHARDS : scopes.length,
    async countEntries(start, end) {
      const counts = await Promise.all(windowsIn(bucketOf('month', start)).map((window) => reader.count({ ...window, lo: start, hi: end }, stats)));
      return counts.reduce((sum, count) => sum + count, 0);
    },
  };
}
