import { successor, type KeyRange } from '../../shared/listing/key-range';

/**
 * Time buckets of the media log. Times are ISO-8601 UTC strings with milliseconds
 * (`2026-01-05T13:04:05.123Z`): equal length, so text order is time order, and every bucket is a
 * prefix of the timestamp (`2026-01` a month, `2026-01-05T13` an hour). A stretch of time is a
 * half-open {@link KeyRange} of instants, `[from, to)`, which is also the range of the send keys
 * (`<send>#<id>`) sent in it: the one range type of the listings.
 */

/** Time buckets, as the length of the timestamp prefix that names them. */
export const TIME_LEVELS = { month: 7, day: 10, hour: 13 } as const;
/** A time bucket size. */
export type TimeLevel = keyof typeof TIME_LEVELS;

/** The end of the last bucket of the year 9999: after every timestamp (`~` sorts after digits). */
export const TIME_MAX = '~';

const START_TEMPLATE = '0000-01-01T00:00:00.000Z';
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const MILLISECONDS: Record<Exclude<TimeLevel, 'month'>, number> = { day: 86_400_000, hour: 3_600_000 };

/** The bucket of `level` holding the instant `time`. */
export function bucketOf(level: TimeLevel, time: string): string {
  return time.slice(0, TIME_LEVELS[level]);
}

/** First instant of a bucket. */
export function bucketStart(bucket: string): string {
  return bucket + START_TEMPLATE.slice(bucket.length);
}

function isoOrMax(milliseconds: number): string {
  return milliseconds > LAST_INSTANT ? TIME_MAX : new Date(milliseconds).toISOString();
}

/** The level of a bucket, by its length (a month `2026-01`, a day, an hour). */
export function levelOfBucket(bucket: string): TimeLevel {
  const level = (Object.keys(TIME_LEVELS) as TimeLevel[]).find((candidate) => TIME_LEVELS[candidate] === bucket.length);
  if (level === undefined) throw new RangeError(`not a time bucket: ${bucket}`);
  return level;
}

/** First instant after a bucket (its exclusive end). */
export function bucketEnd(level: TimeLevel, bucket: string): string {
  const start = new Date(bucketStart(bucket));
  if (level !== 'month') return isoOrMax(start.getTime() + MILLISECONDS[level]);
  // setUTCMonth rather than Date.UTC, which maps years 0-99 to 1900-1999.
  start.setUTCMonth(start.getUTCMonth() + 1);
  return isoOrMax(start.getTime());
}

/** The instants of a bucket: from its first instant to the first after it (open for the last bucket of the year 9999). */
export function bucketRange(level: TimeLevel, bucket: string): KeyRange {
  const end = bucketEnd(level, bucket);
  return { from: bucketStart(bucket), ...(end === TIME_MAX ? {} : { to: end }) };
}

/**
 * The first instant after `time`: what turns an inclusive `to` into the exclusive end of a range,
 * the one place a millisecond is added; undefined past the year 9999 (the range is then open).
 */
export function instantAfter(time: string): string | undefined {
  const after = isoOrMax(Date.parse(time) + 1);
  return after === TIME_MAX ? undefined : after;
}

/**
 * The names of the `level` buckets that `range` touches, as a range of the counters' sort keys. A
 * range ending exactly where a bucket starts does not touch that bucket.
 */
export function bucketsTouched(level: TimeLevel, range: KeyRange): KeyRange {
  const last = range.to === undefined ? undefined : bucketOf(level, range.to);
  const to = last === undefined ? undefined : bucketStart(last) === range.to ? last : successor(last);
  return { ...(range.from === undefined ? {} : { from: bucketOf(level, range.from) }), ...(to === undefined ? {} : { to }) };
}

/** Whether `outer` holds every instant of `inner`. */
export function covers(outer: KeyRange, inner: KeyRange): boolean {
  const fromOk = outer.from === undefined || (inner.from !== undefined && outer.from <= inner.from);
  const toOk = outer.to === undefined || (inner.to !== undefined && inner.to <= outer.to);
  return fromOk && toOk;
}

/** How many buckets of `level` a range touches (an upper bound for months; an open side reaches the year 0000 or 9999). */
export function bucketsSpanned(level: TimeLevel, range: KeyRange): number {
  const duration = level === 'month' ? 28 * MILLISECONDS.day : MILLISECONDS[level];
  const last = range.to === undefined ? LAST_INSTANT : Date.parse(range.to) - 1;
  return Math.floor(last / duration) - Math.floor(Date.parse(range.from ?? START_TEMPLATE) / duration) + 1;
}
