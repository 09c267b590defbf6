import { mapConcurrently } from '../../shared/async/map-concurrently';
import type { KeyRange } from '../../shared/listing/key-range';
import type { ReadBudget } from '../../shared/listing/read-budget';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { comboAttribute, counterLevelsOf, matchingCount, sumBuckets, TOTAL_ATTRIBUTE, type CounterBucket } from '../model/counters';
import { COUNTER_SCOPES, type CounterScope } from '../model/keys';
import { bucketOf, bucketRange, bucketStart, covers, type TimeLevel } from '../model/time-buckets';
import { entryMatches, filtersStatuses, indexFilter } from './entry-filter';
import { COUNTER_READS_IN_FLIGHT, type MediaLogIndexReader } from './index-reader';
import type { ListingRequest } from './list-request';
import { scopePartition, scopeShards, type MonthCounters } from './list-plan';
import type { CountedScopes } from './listing-scope';
import type { CountingSource } from './range-counts';
import { ENTRY_READ_UNITS, INDEX_ITEM_UNITS, QUERY_UNITS } from './read-costs';

/** `counts` less `hidden`, attribute by attribute. */
function subtract(counts: Readonly<Record<string, number>>, hidden: Readonly<Record<string, number>> | undefined): Record<string, number> {
  if (hidden === undefined) return { ...counts };
  return Object.fromEntries(Object.entries(counts).map(([attribute, value]) => [attribute, Math.max(0, value - (hidden[attribute] ?? 0))]));
}

function minus(buckets: readonly CounterBucket[], hidden: readonly CounterBucket[]): CounterBucket[] {
  const byBucket = new Map(hidden.map(({ bucket, counts }) => [bucket, counts]));
  return buckets.map(({ bucket, counts }) => ({ bucket, counts: subtract(counts, byBucket.get(bucket)) }));
}

/** Whether a bucket name lies in a range of names. */
function named(bucket: string, names: KeyRange): boolean {
  return (names.from === undefined || bucket >= names.from) && (names.to === undefined || bucket < names.to);
}

/**
 * The {@link CountingSource} of a listing: the counters of its scopes summed, less those of its
 * hidden scopes (an admin's root users), its status filter, and partial buckets counted in the
 * scopes' own partitions (every shard; the entries read too when statuses are filtered, since no
 * index holds them). Hidden users keep month counters only: in finer buckets their entries are
 * counted once for all the buckets read together, tallied per bucket; where that does not fit in
 * the count's share of the budget (DESIGN 4), all their entries of the month are taken away
 * instead, and those counts are lower bounds, said so. Counts entry by entry run one after
 * another, so the same request spends the budget the same way each time.
 */
export function scopeCounting(reader: MediaLogIndexReader, request: ListingRequest, scopes: CountedScopes, months: MonthCounters, budget: ReadBudget): CountingSource {
  const { counted, hidden } = scopes;
  const levels = counterLevelsOf(counted[0] ?? COUNTER_SCOPES.all);
  const monthsOf = (list: readonly CounterScope[]) => sumBuckets(list.map((scope) => months.of(scope)));
  const hiddenMonths = new Map(monthsOf(hidden).map(({ bucket, counts }) => [bucket, counts]));
  const filter = request.scope.kind === 'all' && request.scope.exclude.length > 0 ? indexFilter({ excludeUserIds: request.scope.exclude }) : undefined;
  const withStatuses = filtersStatuses(request.statuses);
  const shardsPerScope = scopeShards(counted[0] ?? COUNTER_SCOPES.all).length;
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(count: () => Promise<T>): Promise<T> => {
    const run = queue.then(count);
    queue = run.catch(() => undefined);
    return run;
  };

  /**
   * `buckets` of `level` less the hidden users' entries in each, counted entry by entry over the
   * stretch of those inside the range. A bucket the range cuts keeps them: its count is then an
   * upper bound that is never used as such, since the counting splits it or counts its part of the
   * range entry by entry, where the index filter leaves the hidden entries out.
   */
  const withoutHidden = async (level: TimeLevel, buckets: readonly CounterBucket[]): Promise<CounterBucket[]> => {
    const inside = buckets.filter(({ bucket }) => covers(request.range, bucketRange(level, bucket)));
    const first = inside[0];
    const last = inside.at(-1);
    if (hidden.length === 0 || first === undefined || last === undefined) return [...buckets];
    const parts = hidden.flatMap((scope) => scopeShards(scope).map((shard) => ({ partition: scopePartition(scope, shard) })));
    const stretch = { ...bucketRange(level, last.bucket), from: bucketStart(first.bucket) };
    const read = await oneAtATime(() =>
      reader.count(parts, stretch, budget, { readEntries: withStatuses, tally: (item, entry) => [TOTAL_ATTRIBUTE, ...(entry ? [comboAttribute(entry)] : [])].map((name) => `${bucketOf(level, String(item[MEDIA_LOG_ATTRIBUTES.sendKey]))}#${name}`) }),
    );
    return buckets.map(({ bucket, counts }) => {
      if (!inside.some((candidate) => candidate.bucket === bucket)) return { bucket, counts };
      if (!read.exact) return { bucket, counts: subtract(counts, hiddenMonths.get(bucketOf('month', bucketStart(bucket)))), exact: false };
      const mine = Object.fromEntries(Object.keys(counts).map((name) => [name, read.tallies.get(`${bucket}#${name}`) ?? 0]));
      return { bucket, counts: subtract(counts, mine) };
    });
  };

  return {
    levels,
    async buckets(level, parent, names) {
      if (level === 0) return minus(monthsOf(counted), monthsOf(hidden)).filter(({ bucket }) => named(bucket, names));
      const size = levels[level];
      if (size === undefined) return [];
      const lists = await mapConcurrently(counted, COUNTER_READS_IN_FLIGHT, (scope) => reader.counterBuckets(scope, size, parent, names, budget));
      return withoutHidden(size, sumBuckets(lists));
    },
    matching: (counts) => matchingCount(counts, request.statuses),
    canRead: () => budget.allows(QUERY_UNITS),
    countUnits: (counts) => counted.length * shardsPerScope * QUERY_UNITS + (counts[TOTAL_ATTRIBUTE] ?? 0) * (INDEX_ITEM_UNITS + (withStatuses ? ENTRY_READ_UNITS : 0)),
    splitUnits: () => (counted.length + hidden.length) * QUERY_UNITS,
    async countEntries(range) {
      const month = bucketOf('month', range.from ?? '');
      const withEntries = counted.filter((scope) => months.of(scope).some((bucket) => bucket.bucket === month && matchingCount(bucket.counts, request.statuses) > 0));
      const parts = withEntries.flatMap((scope) => scopeShards(scope).map((shard) => ({ partition: scopePartition(scope, shard), ...(filter ? { filter } : {}) })));
      return oneAtATime(() => reader.count(parts, range, budget, withStatuses ? { check: (entry) => entryMatches(entry, { statuses: request.statuses }) } : {}));
    },
  };
}
