import { mapConcurrently } from '../../shared/async/map-concurrently';
import { successor, type KeyRange } from '../../shared/listing/key-range';
import type { ReadBudget } from '../../shared/listing/read-budget';
import { comboAttribute, counterLevelsOf, matchingCount, parentBucketOf, sumBuckets, TOTAL_ATTRIBUTE, type CounterBucket } from '../model/counters';
import { COUNTER_SCOPES, type CounterScope } from '../model/keys';
import { bucketOf, bucketRange, bucketStart, type TimeLevel } from '../model/time-buckets';
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
 * hidden scopes (an admin's root users: by their counters where they keep the level, else by
 * reading their entries in the buckets), its status filter, and partial buckets counted in the
 * scopes' own partitions (every shard; the entries read too when statuses are filtered, since no
 * index holds them). Everything it reads comes from the count's share of the request's budget
 * (DESIGN 4): when the hidden entries do not fit in it, their coarser counters are taken away
 * instead and the total is a lower bound, said so. Counts entry by entry run one after another, so
 * the same request spends the budget the same way each time.
 */
export function scopeCounting(reader: MediaLogIndexReader, request: ListingRequest, scopes: CountedScopes, months: MonthCounters, budget: ReadBudget): CountingSource {
  const { counted, hidden } = scopes;
  const levels = counterLevelsOf(counted[0] ?? COUNTER_SCOPES.all);
  const monthsOf = (list: readonly CounterScope[]) => sumBuckets(list.map((scope) => months.of(scope)));
  const topBuckets = minus(monthsOf(counted), monthsOf(hidden));
  const filter = request.scope.kind === 'all' && request.scope.exclude.length > 0 ? indexFilter({ excludeUserIds: request.scope.exclude }) : undefined;
  const withStatuses = filtersStatuses(request.statuses);
  const shardsPerScope = scopeShards(counted[0] ?? COUNTER_SCOPES.all).length;
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(count: () => Promise<T>): Promise<T> => {
    const run = queue.then(count);
    queue = run.catch(() => undefined);
    return run;
  };
  const counters = (scope: CounterScope, level: TimeLevel, parent: string | null, names: KeyRange) => reader.counterBuckets(scope, level, parent, names, budget);

  /** The hidden users' counts in their finest counter bucket around each bucket: at least what each bucket holds of theirs. */
  const hiddenCeilings = async (buckets: readonly CounterBucket[]): Promise<Map<string, Readonly<Record<string, number>>>> => {
    const finest = counterLevelsOf(hidden[0] as CounterScope).at(-1) as TimeLevel;
    const around = [...new Set(buckets.map(({ bucket }) => bucketOf(finest, bucketStart(bucket))))];
    const lists = await mapConcurrently(hidden.flatMap((scope) => around.map((bucket) => [scope, bucket] as const)), COUNTER_READS_IN_FLIGHT, ([scope, bucket]) =>
      counters(scope, finest, parentBucketOf(scope, finest, bucketStart(bucket)), { from: bucket, to: successor(bucket) }),
    );
    const sums = new Map(sumBuckets(lists).map(({ bucket, counts }) => [bucket, counts]));
    return new Map(buckets.map(({ bucket }) => [bucket, sums.get(bucketOf(finest, bucketStart(bucket))) ?? {}]));
  };

  /** The hidden users' entries of one bucket, counted entry by entry: its total and status combinations. */
  const hiddenEntries = async (level: TimeLevel, bucket: string) => {
    const parts = hidden.flatMap((scope) => scopeShards(scope).map((shard) => ({ partition: scopePartition(scope, shard) })));
    const counted = await oneAtATime(() =>
      reader.count(parts, bucketRange(level, bucket), budget, { readEntries: withStatuses, tally: (_item, entry) => (entry === undefined ? [TOTAL_ATTRIBUTE] : [TOTAL_ATTRIBUTE, comboAttribute(entry)]) }),
    );
    return { exact: counted.exact, counts: Object.fromEntries(counted.tallies) };
  };

  const hiddenCounts = async (level: number, buckets: readonly CounterBucket[], parent: string | null, names: KeyRange): Promise<CounterBucket[]> => {
    const size = levels[level];
    if (hidden.length === 0 || buckets.length === 0 || size === undefined) return [...buckets];
    if (counterLevelsOf(hidden[0] as CounterScope).includes(size)) {
      return minus(buckets, sumBuckets(await mapConcurrently(hidden, COUNTER_READS_IN_FLIGHT, (scope) => counters(scope, size, parent, names))));
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
    const refined = new Map<string, CounterBucket>();
    // Quietest buckets first: a bucket holds at most as many hidden entries as entries, so the
    // budget goes where it buys exact counts, and a busy bucket gets what is left.
    for (const { bucket, counts } of [...buckets].sort((a, b) => (a.counts[TOTAL_ATTRIBUTE] ?? 0) - (b.counts[TOTAL_ATTRIBUTE] ?? 0))) {
      const ceiling = ceilings.get(bucket) ?? {};
      if ((ceiling[TOTAL_ATTRIBUTE] ?? 0) === 0) {
        refined.set(bucket, { bucket, counts });
        continue;
      }
      const read = await hiddenEntries(size, bucket);
      refined.set(bucket, read.exact ? { bucket, counts: subtract(counts, read.counts) } : { bucket, counts: subtract(counts, ceiling), exact: false });
    }
    return buckets.map(({ bucket }) => refined.get(bucket) as CounterBucket);
  };

  return {
    levels,
    async buckets(level, parent, names) {
      if (level === 0) return topBuckets.filter(({ bucket }) => named(bucket, names));
      const size = levels[level];
      if (size === undefined) return [];
      const lists = await mapConcurrently(counted, COUNTER_READS_IN_FLIGHT, (scope) => counters(scope, size, parent, names));
      return hiddenCounts(level, sumBuckets(lists), parent, names);
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
