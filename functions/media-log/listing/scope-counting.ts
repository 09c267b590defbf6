import { mapConcurrently } from '../../shared/async/map-concurrently';
import { CountBudget, type WindowCount } from '../../shared/listing/count-window';
import { keyBefore } from '../../shared/listing/key-window';
import { COUNT_READ_BUDGET } from '../../shared/listing/pagination';
import { COUNTER_SCOPES, type CounterScope } from '../model/keys';
import { counterLevelsOf, matchingCount, parentBucketOf, TOTAL_ATTRIBUTE } from '../model/counters';
import { bucketEnd, bucketOf, bucketStart, type TimeLevel } from '../model/time-buckets';
import { entryMatches, filtersStatuses, indexFilter } from './entry-filter';
import type { MediaLogIndexReader } from './index-reader';
import { COUNTER_READS_IN_FLIGHT, type CounterBucket, type EntryCheck } from './index-reads';
import { scopePartition, scopeShards, sumBuckets } from './list-plan';
import type { CountingSource } from './range-counts';
import type { MonthCounters, ResolvedListing } from './resolved-listing';

/** `counts` less `hidden`, attribute by attribute. */
function subtract(counts: Readonly<Record<string, number>>, hidden: Readonly<Record<string, number>> | undefined): Record<string, number> {
  if (hidden === undefined) return { ...counts };
  return Object.fromEntries(Object.entries(counts).map(([attribute, value]) => [attribute, Math.max(0, value - (hidden[attribute] ?? 0))]));
}

function minus(buckets: readonly CounterBucket[], hidden: readonly CounterBucket[]): CounterBucket[] {
  const byBucket = new Map(hidden.map(({ bucket, counts }) => [bucket, counts]));
  return buckets.map(({ bucket, counts }) => ({ bucket, counts: subtract(counts, byBucket.get(bucket)) }));
}

/** Read units of a Query whatever it returns, of an index item, and of an entry read by key. */
const QUERY_UNITS = 0.5;
const INDEX_ITEM_UNITS = 150 / 8192;
const ENTRY_UNITS = 0.5;

/**
 * The {@link CountingSource} of a listing: the counters of its scopes summed, less those of its
 * hidden scopes (an admin's root users: by their counters where they keep the level, else by
 * reading their entries in the buckets), its status filter, and partial buckets counted in the
 * scopes' own partitions (every shard; the entries read too when statuses are filtered, since no
 * index holds them). Everything it reads entry by entry shares one count budget (DESIGN 4): when
 * the hidden entries do not fit in it, their coarser counters are taken away instead and the total
 * is a lower bound, said so.
 */
export function scopeCounting(reader: MediaLogIndexReader, listing: ResolvedListing, counters: MonthCounters): CountingSource {
  const { counted, hidden } = listing.counted;
  const levels = counterLevelsOf(counted[0] ?? COUNTER_SCOPES.all);
  const monthsOf = (scopes: readonly CounterScope[]) => sumBuckets(scopes.map((scope) => counters.of(scope)));
  const topBuckets = minus(monthsOf(counted), monthsOf(hidden));
  const excluded = listing.scope.kind === 'all' ? listing.scope.exclude : [];
  const filter = indexFilter(excluded.length > 0 ? { excludeUserIds: excluded } : {});
  const withStatuses = filtersStatuses(listing.statuses);
  const check: EntryCheck | undefined = withStatuses ? (entry) => entryMatches(entry, { statuses: listing.statuses }) : undefined;
  const shardsPerScope = scopeShards(counted[0] ?? COUNTER_SCOPES.all).length;

  // One budget for every count this listing makes by reading entries: the range's edges, the
  // hidden users' entries in buckets finer than their counters, and the location of a deep page.
  const budget = new CountBudget(COUNT_READ_BUDGET);

  /** The hidden users' counts in their finest counter bucket around each bucket: at least what each bucket holds of theirs. */
  const hiddenCeilings = async (buckets: readonly CounterBucket[]): Promise<Map<string, Readonly<Record<string, number>>>> => {
    const hiddenLevels = counterLevelsOf(hidden[0] as CounterScope);
    const finest = hiddenLevels[hiddenLevels.length - 1] as TimeLevel;
    const around = [...new Set(buckets.map(({ bucket }) => bucketOf(finest, bucketStart(bucket))))];
    const lists = await mapConcurrently(hidden.flatMap((scope) => around.map((bucket) => [scope, bucket] as const)), COUNTER_READS_IN_FLIGHT, ([scope, bucket]) =>
      reader.counterBuckets(scope, finest, parentBucketOf(scope, finest, bucketStart(bucket)), { first: bucket, last: bucket }),
    );
    const sums = new Map(sumBuckets(lists).map(({ bucket, counts }) => [bucket, counts]));
    return new Map(buckets.map(({ bucket }) => [bucket, sums.get(bucketOf(finest, bucketStart(bucket))) ?? {}]));
  };

  const hiddenCounts = async (level: number, buckets: readonly CounterBucket[], parent: string | null, first?: string, last?: string): Promise<CounterBucket[]> => {
    if (hidden.length === 0 || buckets.length === 0) return [...buckets];
    const size = levels[level];
    if (size === undefined) return [...buckets];
    if (counterLevelsOf(hidden[0] as CounterScope).includes(size)) {
      const lists = await mapConcurrently(hidden, COUNTER_READS_IN_FLIGHT, (scope) => reader.counterBuckets(scope, size, parent, { first, last }));
      return minus(buckets, sumBuckets(lists));
    }
    // The hidden users keep no counters this fine: read their entries in each bucket, within what
    // is left of the budget; where that runs out, take away all their entries of the coarser bucket
    // around it instead: at least what the bucket holds of theirs, so its counts are lower bounds.
    const ceilings = await hiddenCeilings(buckets);
    if (level < levels.length - 1) {
      // Above the finest level the budget is kept for the finest buckets, where it is spent on what
      // the range needs: these counts are lower bounds that their finer buckets make exact.
      return buckets.map(({ bucket, counts }) => {
        const ceiling = ceilings.get(bucket) ?? {};
        return (ceiling[TOTAL_ATTRIBUTE] ?? 0) === 0 ? { bucket, counts } : { bucket, counts: subtract(counts, ceiling), exact: false, refinable: true };
      });
    }
    const partitions = hidden.flatMap((scope) => scopeShards(scope).map((shard) => scopePartition(scope, shard)));
    const refined = new Map<string, CounterBucket>();
    // Quietest buckets first: a bucket holds at most as many hidden entries as entries, so the
    // budget goes where it buys exact counts, and a busy bucket gets what is left.
    for (const { bucket, counts } of [...buckets].sort((a, b) => (a.counts[TOTAL_ATTRIBUTE] ?? 0) - (b.counts[TOTAL_ATTRIBUTE] ?? 0))) {
      const ceiling = ceilings.get(bucket) ?? {};
      if ((ceiling[TOTAL_ATTRIBUTE] ?? 0) === 0) {
        refined.set(bucket, { bucket, counts });
        continue;
      }
      const window = { lo: bucketStart(bucket), hi: keyBefore(bucketEnd(size, bucket)) };
      const read = await budget.count((left) => reader.entryCountsByBucket(partitions, window, size, left, withStatuses));
      refined.set(bucket, read.exact ? { bucket, counts: subtract(counts, read.counts.get(bucket)) } : { bucket, counts: subtract(counts, ceiling), exact: false });
    }
    return buckets.map(({ bucket }) => refined.get(bucket) as CounterBucket);
  };

  return {
    levels,
    async buckets(level, parent, first, last) {
      if (level === 0) {
        return topBuckets.filter(({ bucket }) => (first === undefined || bucket >= first) && (last === undefined || bucket <= last));
      }
      const size = levels[level];
      if (size === undefined) return [];
      const lists = await mapConcurrently(counted, COUNTER_READS_IN_FLIGHT, (scope) => reader.counterBuckets(scope, size, parent, { first, last }));
      return hiddenCounts(level, sumBuckets(lists), parent, first, last);
    },
    matching: (counts) => matchingCount(counts, listing.statuses),
    countUnits: (counts) => counted.length * shardsPerScope * QUERY_UNITS + (counts[TOTAL_ATTRIBUTE] ?? 0) * (INDEX_ITEM_UNITS + (withStatuses ? ENTRY_UNITS : 0)),
    splitUnits: () => (counted.length + hidden.length) * QUERY_UNITS,
    async countEntries(start, end): Promise<WindowCount> {
      const month = bucketOf('month', start);
      const withEntries = counted.filter((scope) => counters.of(scope).some((bucket) => bucket.bucket === month && matchingCount(bucket.counts, listing.statuses) > 0));
      return budget.count((left) =>
        reader.count({
          parts: withEntries.flatMap((scope) => scopeShards(scope).map((shard) => ({ partition: scopePartition(scope, shard), ...(filter ? { filter } : {}) }))),
          window: { lo: start, hi: keyBefore(end) },
          readBudget: left,
          ...(check ? { check } : {}),
        }),
      );
    },
  };
}
