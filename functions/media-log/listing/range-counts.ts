import type { WindowCount } from '../../shared/listing/count-window';
import { bucketEnd, bucketOf, bucketsSpanned, bucketStart, instantBefore, TIME_MAX, TIME_MIN, type TimeLevel, type TimeRange } from '../model/time-buckets';
import { TOTAL_ATTRIBUTE } from '../model/counters';
import type { CounterBucket } from './index-reads';

/**
 * Exact totals and page positions from the counters. A time range is cut into whole counter
 * buckets (months, then days and hours only where the range starts or ends inside a coarser one)
 * plus at most two partial finest buckets, which are counted entry by entry. Page N is located by
 * walking those segments in sort order and splitting only the one it falls into, so a deep page
 * reads no earlier page: at most one finest bucket is skipped entry by entry.
 */

/** A stretch of time with a known number of matching entries. */
export interface Segment {
  readonly start: string;
  readonly end: string;
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
  /** Buckets of `levels[level]` in `parent` from `first` to `last` (inclusive, either open), summed over the scopes, oldest first. */
  buckets(level: number, parent: string | null, first?: string, last?: string): Promise<CounterBucket[]>;
  /** How many of a bucket's entries match the listing's filter. */
  matching(counts: Readonly<Record<string, number>>): number;
  /** Read units of counting a bucket of these counts entry by entry (its entries, matching or not). */
  countUnits(counts: Readonly<Record<string, number>>): number;
  /** Read units of reading the finer counters of `buckets` buckets of a finer level (a Query per scope). */
  splitUnits(buckets: number): number;
  /** Matching entries in `[start, end)`, counted entry by entry (a partial finest bucket), within a read budget. */
  countEntries(start: string, end: string): Promise<WindowCount>;
}

/** Where a page starts: before/after the instant `bound` (by sort order), then skip `skip` entries. */
export interface PagePosition {
  readonly bound: string;
  readonly skip: number;
}

function firstBucket(level: TimeLevel, range: TimeRange): string | undefined {
  return range.start === TIME_MIN ? undefined : bucketOf(level, range.start);
}

function lastBucket(level: TimeLevel, range: TimeRange): string | undefined {
  return range.end === TIME_MAX ? undefined : bucketOf(level, instantBefore(range.end));
}

async function refine(source: CountingSource, level: number, buckets: readonly CounterBucket[], range: TimeRange): Promise<Segment[]> {
  const size = source.levels[level] as TimeLevel;
  const parts = await Promise.all(
    buckets.map(async ({ bucket, counts, exact, refinable }): Promise<Segment[]> => {
      const count = source.matching(counts);
      // An empty bucket is skipped, unless its zero is only a lower bound.
      if (count === 0 && exact !== false) return [];
      const start = bucketStart(bucket);
      const end = bucketEnd(size, bucket);
      const finest = source.levels[level + 1] === undefined;
      if (range.start <= start && end <= range.end && (exact !== false || refinable !== true || finest)) return [{ start, end, count, level, bucket, exact: exact !== false }];
      const inner = { start: range.start > start ? range.start : start, end: range.end < end ? range.end : end };
      if (inner.start >= inner.end) return [];
      const finer = source.levels[level + 1];
      // Splitting reads the finer counters of the bucket; a sparse bucket may be cheaper to count.
      const splitCost = finer === undefined ? Infinity : source.splitUnits(bucketsSpanned(finer, inner.start, inner.end));
      if (finer !== undefined && splitCost < source.countUnits(counts)) {
        const children = await source.buckets(level + 1, bucket, firstBucket(finer, inner), lastBucket(finer, inner));
        return refine(source, level + 1, children, inner);
      }
      const counted = await source.countEntries(inner.start, inner.end);
      return counted.count === 0 && counted.exact ? [] : [{ start: inner.start, end: inner.end, count: counted.count, level: null, exact: counted.exact }];
    }),
  );
  return parts.flat();
}

/** The segments covering `range`, oldest first, each with its exact number of matching entries. */
export async function segmentsOf(source: CountingSource, range: TimeRange): Promise<Segment[]> {
  const coarsest = source.levels[0] as TimeLevel;
  const top = await source.buckets(0, null, firstBucket(coarsest, range), lastBucket(coarsest, range));
  return refine(source, 0, top, range);
}

/** Sum of the segments' counts, exact unless a segment's count is only a lower bound. */
export function totalOf(segments: readonly Segment[]): { readonly count: number; readonly exact: boolean } {
  return { count: segments.reduce((sum, segment) => sum + segment.count, 0), exact: segments.every((segment) => segment.exact) };
}

/**
 * Where the entry at `offset` (0-based, in sort order) lies: the edge of the finest segment holding
 * it and how many entries of that segment come before it. Null when `offset` is past the end.
 */
export async function locate(source: CountingSource, segments: readonly Segment[], offset: number, descending: boolean): Promise<PagePosition | null> {
  let remaining = offset;
  for (const segment of descending ? [...segments].reverse() : segments) {
    if (remaining >= segment.count) {
      remaining -= segment.count;
      continue;
    }
    const edge = descending ? segment.end : segment.start;
    const finer = segment.level === null ? undefined : source.levels[segment.level + 1];
    // Split the segment only when reading its finer counters costs less than skipping entry by entry.
    const splitCost = finer === undefined ? Infinity : source.splitUnits(bucketsSpanned(finer, segment.start, segment.end));
    if (finer === undefined || segment.level === null || segment.bucket === undefined || splitCost >= source.countUnits({ [TOTAL_ATTRIBUTE]: remaining })) {
      return { bound: edge, skip: remaining };
    }
    const children = await source.buckets(segment.level + 1, segment.bucket);
    const parts = await refine(source, segment.level + 1, children, segment);
    // Counters read a moment apart may disagree by a write in flight: fall back to skipping here.
    return (await locate(source, parts, remaining, descending)) ?? { bound: edge, skip: remaining };
  }
  return null;
}
