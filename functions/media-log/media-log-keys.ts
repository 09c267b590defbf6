import { createHash } from 'node:crypto';
import { MEDIA_LOG_ATTRIBUTES, type MediaLogPartitionKind } from '../shared/tables/media-log-table';
import type { MediaLogEntry, MediaStatus, StatusField } from './schemas';

/**
 * Key templates of the media log table, built in one place (see media-log-table.ts for the layout).
 * Times are ISO-8601 UTC strings with milliseconds (`2026-01-05T13:04:05.123Z`): equal length, so
 * text order is time order, and every time bucket is a prefix of the timestamp.
 */

/** Time buckets, as the length of the timestamp prefix that names them. */
export const TIME_LEVELS = { month: 7, day: 10, hour: 13, tenMinutes: 15 } as const;
/** A time bucket size. */
export type TimeLevel = keyof typeof TIME_LEVELS;

/** Range bounds before and after every timestamp (`''` sorts first, `~` after digits). */
export const TIME_MIN = '';
export const TIME_MAX = '~';

const START_TEMPLATE = '0000-01-01T00:00:00.000Z';
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');
const MILLISECONDS: Record<Exclude<TimeLevel, 'month'>, number> = { day: 86_400_000, hour: 3_600_000, tenMinutes: 600_000 };

/** The bucket of `level` holding the instant `time`, e.g. `2026-01` for a month, `2026-01-05T13:4` for ten minutes. */
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

/** Sort key of every listing index: send time, then id, so it is unique and in time order. */
export function sendKey(send: string, id: string): string {
  return `${send}#${id}`;
}

/** What a send key looks like; cursors carry one. */
export const SEND_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9a-f-]{36}$/;

function shiftLast(key: string, delta: number): string {
  return key.slice(0, -1) + String.fromCharCode(key.charCodeAt(key.length - 1) + delta);
}

/** The greatest string of a send key's length below `key`: an inclusive bound meaning "before key". */
export function keyBefore(key: string): string {
  return shiftLast(key, -1);
}

/** The least string of a send key's length above `key`: an inclusive bound meaning "after key". */
export function keyAfter(key: string): string {
  return shiftLast(key, 1);
}

/** Where each status field is stored and which listing index serves its filter. */
export const STATUS_STORAGE: Record<StatusField, { readonly attribute: string; readonly partition: MediaLogPartitionKind }> = {
  status: { attribute: 'status', partition: 'status' },
  'status-ffscan': { attribute: 'statusFfscan', partition: 'ffscan' },
  'status-mediainfo': { attribute: 'statusMediainfo', partition: 'mediainfo' },
  'status-scan-report': { attribute: 'statusScanReport', partition: 'scanReport' },
};

/** Partition values of the listing indexes. */
export const mediaLogKeys = {
  entry: (id: string) => ({ pk: `ENTRY#${id}`, sk: 'ENTRY' }),
  log: (month: string) => `LOG#${month}`,
  user: (userId: number, month: string) => `USER#${userId}#${month}`,
  // Hashed: a url may be longer than a partition key may be, and hashes spread the partitions.
  url: (url: string) => `URL#${createHash('sha256').update(url).digest('base64url')}`,
  status: (value: MediaStatus, month: string) => `${value}#${month}`,
} as const;

/** The stored item of an entry: its fields and one partition value per listing index. */
export function entryItem(entry: MediaLogEntry): Record<string, string | number> {
  const month = bucketOf('month', entry.send);
  const { partition } = MEDIA_LOG_ATTRIBUTES;
  const item: Record<string, string | number> = {
    ...mediaLogKeys.entry(entry.id),
    id: entry.id,
    send: entry.send,
    url: entry.url,
    userId: entry['user-id'],
    [MEDIA_LOG_ATTRIBUTES.sendKey]: sendKey(entry.send, entry.id),
    [partition.log]: mediaLogKeys.log(month),
    [partition.user]: mediaLogKeys.user(entry['user-id'], month),
    [partition.url]: mediaLogKeys.url(entry.url),
  };
  for (const [field, storage] of Object.entries(STATUS_STORAGE) as [StatusField, (typeof STATUS_STORAGE)[StatusField]][]) {
    item[storage.attribute] = entry[field];
    item[partition[storage.partition]] = mediaLogKeys.status(entry[field], month);
  }
  return item;
}

/** The entry an item (from the table or a listing index) holds. */
export function entryFromItem(item: Record<string, unknown>): MediaLogEntry {
  return {
    id: item.id as string,
    send: item.send as string,
    status: item[STATUS_STORAGE.status.attribute] as MediaStatus,
    'status-ffscan': item[STATUS_STORAGE['status-ffscan'].attribute] as MediaStatus,
    'status-mediainfo': item[STATUS_STORAGE['status-mediainfo'].attribute] as MediaStatus,
    'status-scan-report': item[STATUS_STORAGE['status-scan-report'].attribute] as MediaStatus,
    url: item.url as string,
    'user-id': item.userId as number,
  };
}
