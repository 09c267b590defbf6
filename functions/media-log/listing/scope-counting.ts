import { mapConcurrently } from '../../shared/async/map-concurrently';
import type { Counted, ItemFilter } from '../../shared/listing/index-query';
import type { KeyRange } from '../../shared/listing/key-range';
import type { ReadBudget } from '../../shared/listing/read-budget';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { comboAttribute, counterLevelsOf, matchingCount, sumBuckets, TOTAL_ATTRIBUTE, type CounterBucket } from '../model/counters';
import { COUNTER_SCOPES, type CounterScope } from '../model/keys';
import type { MediaLogEntry } from '../model/schemas';
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
export class ScopeCounting implements CountingSource {
  public readonly levels: readonly TimeLevel[];
  private readonly counted: readonly CounterScope[];
  private readonly hidden: readonly CounterScope[];
  private readonly hiddenMonths: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** The index filter that leaves hidden users' items out of a count. */
  private readonly filter: ItemFilter | undefined;
  private readonly withStatuses: boolean;
  private queue: Promise<unknown> = Promise.resolve();

  public constructor(
    private readonly reader: MediaLogIndexReader,
    private readonly request: ListingRequest,
    scopes: CountedScopes,
    private readonly months: MonthCounters,
    private readonly budget: ReadBudget,
  ) {
    this.counted = scopes.counted;
    this.hidden = scopes.hidden;
    this.levels = counterLevelsOf(this.counted[0] ?? COUNTER_SCOPES.all);
    this.hiddenMonths = new Map(this.monthsOf(this.hidden).map(({ bucket, counts }) => [bucket, counts]));
    this.filter = request.scope.kind === 'all' && request.scope.exclude.length > 0 ? indexFilter({ excludeUserIds: request.scope.exclude }) : undefined;
    this.withStatuses = filtersStatuses(request.statuses);
  }

  public async buckets(level: number, parent: string | null, names: KeyRange): Promise<CounterBucket[]> {
    if (level === 0) return minus(this.monthsOf(this.counted), this.monthsOf(this.hidden)).filter(({ bucket }) => named(bucket, names));
    const size = this.levels[level];
    if (size === undefined) return [];
    const lists = await mapConcurrently(this.counted, COUNTER_READS_IN_FLIGHT, (scope) => this.reader.counterBuckets(scope, size, parent, names, this.budget));
    return this.withoutHidden(size, sumBuckets(lists));
  }

  public matching(counts: Readonly<Record<string, number>>): number {
    return matchingCount(counts, this.request.statuses);
  }

  public canRead(): boolean {
    return this.budget.allows(QUERY_UNITS);
  }

  public countUnits(counts: Readonly<Record<string, number>>): number {
    const shards = scopeShards(this.counted[0] ?? COUNTER_SCOPES.all).length;
    return this.counted.length * shards * QUERY_UNITS + (counts[TOTAL_ATTRIBUTE] ?? 0) * (INDEX_ITEM_UNITS + (this.withStatuses ? ENTRY_READ_UNITS : 0));
  }

  public splitUnits(): number {
    return (this.counted.length + this.hidden.length) * QUERY_UNITS;
  }

  public countEntries(range: KeyRange): Promise<Counted> {
    const month = bucketOf('month', range.from ?? '');
    const { statuses } = this.request;
    const withEntries = this.counted.filter((scope) => this.months.of(scope).some((bucket) => bucket.bucket === month && matchingCount(bucket.counts, statuses) > 0));
    const parts = withEntries.flatMap((scope) => scopeShards(scope).map((shard) => ({ partition: scopePartition(scope, shard), ...(this.filter ? { filter: this.filter } : {}) })));
    return this.oneAtATime(() => this.reader.count(parts, range, this.budget, this.withStatuses ? { check: (entry) => entryMatches(entry, { statuses }) } : {}));
  }

  private monthsOf(scopes: readonly CounterScope[]): CounterBucket[] {
    return sumBuckets(scopes.map((scope) => this.months.of(scope)));
  }

  private oneAtATime<T>(count: () => Promise<T>): Promise<T> {
    const run = this.queue.then(count);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * `buckets` of `level` less the hidden users' entries in each, counted entry by entry over the
   * stretch of those inside the range. A bucket the range cuts keeps them: its count is then an
   * upper bound that is never used as such, since the counting splits it or counts its part of the
   * range entry by entry, where the index filter leaves the hidden entries out.
   */
  private async withoutHidden(level: TimeLevel, buckets: readonly CounterBucket[]): Promise<CounterBucket[]> {
    const inside = buckets.filter(({ bucket }) => covers(this.request.range, bucketRange(level, bucket)));
    const first = inside[0];
    const last = inside.at(-1);
    if (this.hidden.length === 0 || first === undefined || last === undefined) return [...buckets];
    const parts = this.hidden.flatMap((scope) => scopeShards(scope).map((shard) => ({ partition: scopePartition(scope, shard) })));
    const stretch = { ...bucketRange(level, last.bucket), from: bucketStart(first.bucket) };
    const tally = (item: Readonly<Record<string, unknown>>, entry: MediaLogEntry | undefined) =>
      [TOTAL_ATTRIBUTE, ...(entry ? [comboAttribute(entry)] : [])].map((name) => `${bucketOf(level, String(item[MEDIA_LOG_ATTRIBUTES.sendKey]))}#${name}`);
    const read = await this.oneAtATime(() => this.reader.count(parts, stretch, this.budget, { readEntries: this.withStatuses, tally }));
    return buckets.map(({ bucket, counts }) => {
      if (!inside.some((candidate) => candidate.bucket === bucket)) return { bucket, counts };
      if (!read.exact) return { bucket, counts: subtract(counts, this.hiddenMonths.get(bucketOf('month', bucketStart(bucket)))), exact: false };
      const mine = Object.fromEntries(Object.keys(counts).map((name) => [name, read.tallies.get(`${bucket}#${name}`) ?? 0]));
      return { bucket, counts: subtract(counts, mine) };
    });
  }
}
