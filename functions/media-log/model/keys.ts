import { createHash } from 'node:crypto';
import type { IndexedStatus, StatusField } from './entry-fields';
import { allShards, SHARDS, shardOf } from './shards';

/**
 * Every key and partition value of the media log, built in this one place (see
 * functions/shared/tables/media-log-table.ts for the layout): entries, the listing-index partitions
 * (sharded where the design rate needs it: shards.ts), and the counters.
 */

/**
 * Whose entries a counter counts: everyone's, one user's, or one family's (the entries of a top
 * user and of its sub users, by the family each entry was written with: DESIGN.md 7b, round five).
 */
export type CounterScope =
  | { readonly kind: 'all' }
  | { readonly kind: 'user'; readonly userId: number }
  | { readonly kind: 'family'; readonly familyId: number };

/** The counter scopes. */
export const COUNTER_SCOPES = {
  all: { kind: 'all' } as CounterScope,
  user: (userId: number): CounterScope => ({ kind: 'user', userId }),
  family: (familyId: number): CounterScope => ({ kind: 'family', familyId }),
} as const;

/** A scope as counter keys name it (`ALL`, `USER#<id>`, `FAMILY#<id>`); also a map key for scopes, never parsed back. */
export function scopeName(scope: CounterScope): string {
  if (scope.kind === 'all') return 'ALL';
  return scope.kind === 'user' ? `USER#${scope.userId}` : `FAMILY#${scope.familyId}`;
}

/** Sort key of every listing index: send time, then id, so it is unique and in time order. */
export function sendKey(send: string, id: string): string {
  return `${send}#${id}`;
}

/** What a send key looks like; cursors carry one. */
export const SEND_KEY_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#[0-9a-f-]{36}$/;

/** The send time and the entry id a send key holds. */
export function parseSendKey(key: string): { readonly send: string; readonly id: string } {
  const separator = key.indexOf('#');
  return { send: key.slice(0, separator), id: key.slice(separator + 1) };
}

/** Where each status field is stored, when it last changed (the `at` of the feed message that set it; the entry's send time until one does), and its status index. */
export const STATUS_STORAGE = {
  status: { attribute: 'status', changedAt: 'statusAt', index: 'status' },
  'status-ffscan': { attribute: 'statusFfscan', changedAt: 'statusFfscanAt', index: 'ffscan' },
  'status-mediainfo': { attribute: 'statusMediainfo', changedAt: 'statusMediainfoAt', index: 'mediainfo' },
  'status-scan-report': { attribute: 'statusScanReport', changedAt: 'statusScanReportAt', index: 'scanReport' },
} as const satisfies Record<StatusField, { readonly attribute: string; readonly changedAt: string; readonly index: string }>;

/**
 * A url as keys carry it: the first 128 bits of its SHA-256, base64url (22 characters). A url may
 * be longer than a key may be, and a short hash keeps the url index items small, which its count
 * reads by the thousand (a collision of 128 bits is not a practical event; the page checks the url
 * of every entry it returns anyway).
 */
export function urlHash(url: string): string {
  return createHash('sha256').update(url).digest().subarray(0, 16).toString('base64url');
}

/** Shards of a status value's partition (shards.ts). */
export function statusShards(value: IndexedStatus): number {
  return value === 'pending' || value === 'processing' ? SHARDS.inFlightStatus : SHARDS.finalStatus;
}

/** What every entry's partition key starts with: stream filters and IAM grants name entries by it. */
export const ENTRY_KEY_PREFIX = 'E#';

/** What the partition key of a family's move marker starts with: IAM grants name the markers by it. */
export const FAMILY_MOVE_KEY_PREFIX = 'MOVE#';

/** What every counter's partition key starts with: IAM grants name the counters by it. */
export const COUNTER_KEY_PREFIX = 'COUNT#';

/** What the partition key of a first-stage fold delta starts with (fold/delta-items.ts): the second stage's stream filter and IAM grants name the deltas by it. */
export const DELTA_KEY_PREFIX = 'DELTA#';

/** What the partition key of a first-stage fold watermark starts with (one item per media-log stream shard): IAM grants name them by it. */
export const FOLD_MARK_KEY_PREFIX = 'FOLDED#';

/** The leading-key pattern of an IAM grant on every item whose partition key starts with `prefix`. */
export function keysStartingWith(prefix: string): string {
  return `${prefix}*`;
}

/** Keys and partition values of the media log table. */
export const mediaLogKeys = {
  /** `E#<id>`: one entry; its key is the id, so storing it twice cannot happen. */
  entry: (id: string) => ({ pk: `${ENTRY_KEY_PREFIX}${id}` }),
  /** The id of an entry key. */
  idOf: (pk: string) => pk.slice(ENTRY_KEY_PREFIX.length),
  /**
   * `LOG#<shard>`: the whole log's partitions, all time. A partition key takes no more writes for
   * spanning all time (the shards bound that), and a page reads one Query per shard whatever the
   * months it spans, where monthly partitions cost one per shard and month.
   */
  log: (shard: number) => `LOG#${shard}`,
  /** Every shard of the whole log. */
  logShards: () => allShards(SHARDS.log).map((shard) => mediaLogKeys.log(shard)),
  /** `USER#<id>#<shard>`: one user's partitions, all time. */
  user: (userId: number, shard: number) => `USER#${userId}#${shard}`,
  /** Every shard of one user. */
  userShards: (userId: number) => allShards(SHARDS.user).map((shard) => mediaLogKeys.user(userId, shard)),
  /**
   * `FAMILY#<id>#<shard>`: one family's partitions, all time, sharded like a user's (a family may
   * be the heaviest customer). A family is the top user of an entry's user when it was written: the
   * sub user's parent, or the user itself.
   */
  family: (familyId: number, shard: number) => `FAMILY#${familyId}#${shard}`,
  /** Every shard of one family. */
  familyShards: (familyId: number) => allShards(SHARDS.user).map((shard) => mediaLogKeys.family(familyId, shard)),
  /**
   * `MOVE#<family id>`: the users whose entries are being re-keyed into or out of a family (a sub
   * user moved to another parent). A family's listing leaves their entries out until it is done.
   */
  familyMoves: (familyId: number) => ({ pk: `${FAMILY_MOVE_KEY_PREFIX}${familyId}` }),
  /**
   * A url's partitions, all time: its hash for shard 0 and `<hash>#<shard>` for the others, sharded
   * like a user's (one url may take 40 % of the requests). Shard 0 keeps the value of the partition
   * before urls were sharded, so the entries written then are found in it without a re-key. A url
   * listing counts its shards within the count budget (a base64url hash holds no `#`).
   */
  url: (hash: string, shard: number) => (shard === 0 ? hash : `${hash}#${shard}`),
  /** Every shard of one url. */
  urlShards: (hash: string) => allShards(SHARDS.url).map((shard) => mediaLogKeys.url(hash, shard)),
  /** `<value>#<shard>`: a status value's partition spans all time (a status change knows the entry's id, not its month). */
  status: (value: IndexedStatus, shard: number) => `${value}#${shard}`,
  /** Every shard of a status value. */
  statusShards: (value: IndexedStatus) => allShards(statusShards(value)).map((shard) => mediaLogKeys.status(value, shard)),
  /** The shards an entry's items land in. */
  shardsOf: (id: string) => ({
    log: shardOf(id, SHARDS.log),
    user: shardOf(id, SHARDS.user),
    family: shardOf(id, SHARDS.user),
    url: shardOf(id, SHARDS.url),
    status: (value: IndexedStatus) => shardOf(id, statusShards(value)),
  }),
  /**
   * `COUNT#<scope>#<level>[#<parent bucket>]`: the counters of `level` inside the parent bucket (the
   * month of a day, the day of an hour); months have a single partition per scope.
   */
  counterPartition: (scope: CounterScope, level: string, parentBucket: string | null) =>
    parentBucket === null ? `${COUNTER_KEY_PREFIX}${scopeName(scope)}#${level}` : `${COUNTER_KEY_PREFIX}${scopeName(scope)}#${level}#${parentBucket}`,
  /** `<bucket>`: one counter item. The fold writes each at most once per batch, so none is split into shards. */
  counterSortKey: (bucket: string) => bucket,
} as const;
