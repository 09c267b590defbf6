/**
 * Time buckets of the media log. Times are ISO-8601 UTC strings with milliseconds
 * (`2026-01-05T13:04:05.123Z`): equal length, so text order is time order, and every bucket is a
 * prefix of the timestamp (`2026-01` a month, `2026-01-05T13` an hour).
 */

/** Time buckets, as the length of the timestamp prefix that names them. */
export const TIME_LEVELS = { month: 7, day: 10, hour: 13 } as const;
/** A time bucket size. */
export type TimeLevel = keyof typeof TIME_LEVELS;

/** Range bounds before and after every timestamp (`''` sorts first, `~` after digits). */
export const TIME_MIN = '';
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

/** First instant after a bucket (its exclusive end). */
export function bucketEnd(level: TimeLevel, bucket: string): string {
  const start = new Date(bucketStart(bucket));
  if (level !== 'month') return isoOrMax(start.getTime() + MILLISECONDS[level]);
  // setUTCMonth rather than Date.UTC, which maps years 0-99 to 1900-1999.
  start.setUTCMonth(start.getUTCMonth() + 1);
  return isoOrMax(start.getTime());
}

/** The instant one millisecond after `time` (turns an inclusive `to` into an exclusive end). */
export function instantAfter(time: string): string {
  return isoOrMax(Date.parse(time) + 1);
}

/** The instant one millisecond before `time` (the last instant inside an exclusive end). */
export function instantBefore(time: string): string {
  return new Date(Date.parse(time) - 1).toISOString();
}

/** How many buckets of `level` the instants `[start, end)` touch (an upper bound for months). */
export function bucketsSpanned(level: TimeLevel, start: string, end: string): number {
  const duration = level === 'month' ? 28 * MILLISECONDS.day : MILLISECONDS[level];
  const last = end === TIME_MAX ? LAST_INSTANT : Date.parse(end) - 1;
  return Math.floor(last / duration) - Math.floor(Date.parse(start) / duration) + 1;
}

/** A half-open time range `[start, end)`; {@link TIME_MIN} / {@link TIME_MAX} leave a side open. */
export interface TimeRange {
  readonly start: string;
  readonly end: string;
}
