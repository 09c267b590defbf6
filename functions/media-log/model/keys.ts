import { createHash } from 'node:crypto';
import { MEDIA_LOG_ATTRIBUTES, type MediaLogPartitionKind } from '../../shared/tables/media-log-table';
import type { MediaStatus, StatusField } from './entry-fields';

/**
 * Every key and partition value of the media log table, built in this one place (see
 * media-log-table.ts for the layout): entries, the listing-index partitions, and the counters.
 */

/** Whose entries a counter counts: everyone's or one user's. */
export type CounterScope = 'ALL' | `USER#${number}`;

/** Sort key of every listing index: send time, then id, so it is unique and in time order. */
export function sendKey(send: string, id: string): string {
  return `${send}#${id}`;
}

/** What a send key looks like; cursors carry one. */
export const SEND_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9a-f-]{36}$/;

/**
 * Where each status field is stored, when it last changed (the `at` of the feed message that set
 * it; the entry's send time until one does), and which listing index serves its filter.
 */
export const STATUS_STORAGE: Record<StatusField, { readonly attribute: string; readonly changedAt: string; readonly partition: MediaLogPartitionKind }> = {
  status: { attribute: 'status', changedAt: 'statusAt', partition: 'status' },
  'status-ffscan': { attribute: 'statusFfscan', changedAt: 'statusFfscanAt', partition: 'ffscan' },
  'status-mediainfo': { attribute: 'statusMediainfo', changedAt: 'statusMediainfoAt', partition: 'mediainfo' },
  'status-scan-report': { attribute: 'statusScanReport', changedAt: 'statusScanReportAt', partition: 'scanReport' },
};

/**
 * A url as keys carry it: its SHA-256 (base64url). A url may be longer than a key may be, and
 * hashes spread the partitions; the url itself is checked on every entry read.
 */
export function urlHash(url: string): string {
  return createHash('sha256').update(url).digest('base64url');
}

/** Keys of the media log table. */
export const mediaLogKeys = {
  /** `ENTRY#<id>` / `ENTRY`: one entry; its key is the id, so storing it twice cannot happen. */
  entry: (id: string) => ({ pk: `ENTRY#${id}`, sk: 'ENTRY' }),
  /** Partition values of the time-ordered listing indexes, one per month. */
  log: (month: string) => `LOG#${month}`,
  user: (userId: number, month: string) => `USER#${userId}#${month}`,
  /** A url's partition spans all time: a url is requested a few times, and its listing counts it within the count budget. */
  url: (hash: string) => `URL#${hash}`,
  /** A status value's partition spans all time: a status change knows the entry's id, not its month. */
  status: (value: MediaStatus) => `STATUS#${value}`,
  /** Counter scopes. */
  scope: {
    all: 'ALL' as CounterScope,
    user: (userId: number): CounterScope => `USER#${userId}`,
  },
  /**
   * `COUNT#<scope>#<level>[#<parent bucket>]`: the counters of `level` inside the parent bucket (the
   * month of a day, the day of an hour); months have a single partition per scope.
   */
  counterPartition: (scope: CounterScope, level: string, parentBucket: string | null) =>
    parentBucket === null ? `COUNT#${scope}#${level}` : `COUNT#${scope}#${level}#${parentBucket}`,
  /** `<bucket>`: one counter item. The fold writes each at most once per batch, so none is split into shards. */
  counterSortKey: (bucket: string) => bucket,
} as const;

/** The listing-index partition a counter scope's entries of one month are listed in. */
export function scopePartition(scope: CounterScope, month: string): { readonly kind: MediaLogPartitionKind; readonly value: string } {
  if (scope === 'ALL') return { kind: 'log', value: mediaLogKeys.log(month) };
  return { kind: 'user', value: mediaLogKeys.user(Number(scope.slice('USER#'.length)), month) };
}

/** The stored sort key attribute of every listing index. */
export const SEND_KEY_ATTRIBUTE = MEDIA_LOG_ATTRIBUTES.sendKey;
