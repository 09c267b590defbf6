import { intersectRanges, isEmptyRange, type KeyRange } from '../../shared/listing/key-range';
import { TOTAL_ATTRIBUTE, type CounterBucket } from '../model/counters';
import { bucketRange, bucketsSpanned, bucketsTouched, covers, type TimeLevel } from '../model/time-buckets';

/**
 * Exact totals and page positions from the counters. A time range is cut into whole counter
 * buckets (months, then days and hours only where the range starts or ends inside a coarser one)
 * plus at most two partial finest buckets, which are counted entry by entry. Page N is located by
 * walking those segments in sort order and splitting only the one it falls into, so a deep page
 * reads no earlier page: at most one finest bucket is skipped entry by entry. Each decision (split
 * a bucket into its finer counters, or count it entry by entry) is taken on the counts read so far,
 * by what each costs; the reads go through a {@link CountingSource}.
 */

/** A stretch of time with a known number of matching entries. */
export interface Segment {
  readonly range: KeyRange;
  readonly count: number;
  /** Level index when the segment is a whole counter bucket (so it can be split); null when counted entry by entry. */
  readonly level: number | null;
  readonly bucket?: string;
  /** False when counting it entry by entry ran out of budget: `count` is then a lower bound. */
  readonly exact: boolean;
}

/** What the counting needs: the counters of the listing's scopes, its status filter, and a way to count a partial bucket. */
export interface CountingSource {
  /** Bucket sizes kept, coarsest first. */
  readonly levels: readonly TimeLevel[];
  /** Buckets of `levels[level]` in `parent` whose names lie in `names`, summed over the scopes, oldest first. */
  buckets(level: number, parent: string | null, names: KeyRange): Promise<CounterBucket[]>;
  /** How many of a bucket's entries match the listing's filter. */
  matching(counts: Readonly<Record<string, number>>): number;
  /** Read units of counting a bucket of these counts entry by entry (its entries, matching or not). */
  countUnits(counts: Readonly<Record<string, number>>): number;
  /** Read units of reading the finer counters of `buckets` buckets of a finer level (a Query per scope). */
  splitUnits(buckets: number): number;
  /** Matching entries in `range` (part of a finest bucket), counted entry by entry within the count budget. */
  countEntries(range: KeyRange): Promise<{ readonly count: number; readonly exact: boolean }>;
  /** Whether the count budget still pays for a read: once it does not, what is left uncounted makes the total a lower bound. */
  canRead(): boolean;
}

/** Where a page starts: at the walk edge `edge` (none: the range's own start), then `skip` entries on. */
export interface PagePosition {
  readonly edge?: string;
  readonly skip: number;
}

/** The total of a listing. */
export interface Total {
  readonly count: number;
  /** False when a count ran out of budget: `count` is then a lower bound. */
  readonly exact: boolean;
}

async function refine(source: CountingSource, level: number, buckets: readonly CounterBucket[], range: KeyRange): Promise<Segment[]> {
  const size = source.levels[level] as TimeLevel;
  const parts = await Promise.all(
    buckets.map(async ({ bucket, counts, exact }): Promise<Segment[]> => {
      const count = source.matching(counts);
      // An empty bucket is skipped, unless its zero is only a lower bound.
      if (count === 0 && exact !== false) return [];
      const own = bucketRange(size, bucket);
      const finer = source.levels[level + 1];
      if (covers(range, own)) return [{ range: own, count, level, bucket, exact: exact !== false }];
      const inner = intersectRanges(range, own);
      if (isEmptyRange(inner)) return [];
      if (!source.canRead()) return [{ range: inner, count: 0, level: null, exact: false }];
      // Splitting reads the finer counters of the bucket; a sparse bucket may be cheaper to count.
      if (finer !== undefined && source.splitUnits(bucketsSpanned(finer, inner)) < source.countUnits(counts)) {
        return refine(source, level + 1, await source.buckets(level + 1, bucket, bucketsTouched(finer, inner)), inner);
      }
      const counted = await source.countEntries(inner);
      return counted.count === 0 && counted.exact ? [] : [{ range: inner, count: counted.count, level: null, exact: counted.exact }];
    }),
  );
  return parts.flat();
}

/** The segments covering `range`, oldest first, each with its exact number of matching entries. */
export async function segmentsOf(source: CountingSource, range: KeyRange): Promise<Segment[]> {
  const coarsest = source.levels[0] as TimeLevel;
  return refine(source, 0, await source.buckets(0, null, bucketsTouched(coarsest, range)), range);
}

/** Sum of the segments' counts, exact unless a segment's count is only a lower bound. */
export function totalOf(segments: readonly Segment[]): Total {
  return { count: segments.reduce((sum, segment) => sum + segment.count, 0), exact: segments.every((segment) => segment.exact) };
}

/**
 * Where the entry at `offset` (0-based, in sort order) lies: the edge of the finest segment holding
 * it and how many entries of that segment come before it. Null when `offset` is past the end.
 */
export async function locate(source: CountingSource, segments: readonly Segment[], offset: number, ascending: boolean): Promise<PagePosition | null> {
  let remaining = offset;
  for (const segment of ascending ? segments : [...segments].reverse()) {
    if (remaining >= segment.count) {
      remaining -= segment.count;
      continue;
    }
    // Walking up the segment starts at its first instant; walking down, below its end.
    const edge = ascending ? segment.range.from : segment.range.to;
    const position = { ...(edge === undefined ? {} : { edge }), skip: remaining };
    const finer = segment.level === null ? undefined : source.levels[segment.level + 1];
    // Split the segment only when reading its finer counters costs less than skipping entry by entry.
    if (finer === undefined || segment.level === null || segment.bucket === undefined || !source.canRead()) return position;
    if (source.splitUnits(bucketsSpanned(finer, segment.range)) >= source.countUnits({ [TOTAL_ATTRIBUTE]: remaining })) return position;
    const children = await source.buckets(segment.level + 1, segment.bucket, {});
    const parts = await refine(source, segment.level + 1, children, segment.range);
    // Counters read a moment apart may disagree by a write in flight: fall back to skipping here.
    return (await locate(source, parts, remaining, ascending)) ?? position;
  }
  return null;
}
