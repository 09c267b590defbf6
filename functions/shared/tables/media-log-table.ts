import type { IndexDefinition, TableDefinition } from './table-definition';
import { TABLE_NAMES } from './table-names';

/**
 * Attribute names of the media log table, shared by the writers, the readers and the indexes. Key
 * values are built in `functions/media-log/model/keys.ts`. Names are short where an index holds
 * them: index items are read by the thousand (a url's count) and billed by their bytes.
 */
export const MEDIA_LOG_ATTRIBUTES = {
  /** Sort key of every listing index: `<send ISO-8601 UTC, ms>#<entry id>`, unique and in time order. */
  sendKey: 'sk',
  /** The entry's user, projected into the indexes whose listings check the caller's scope on index items. */
  userId: 'userId',
  /** The entry's family (its user's top user when it was written), kept for the fold's family counters. */
  family: 'family',
  /**
   * When an entry or counter item leaves the retention window (epoch seconds), the TTL attribute of
   * both tables; absent when the log keeps everything (functions/media-log/model/retention.ts).
   */
  expiresAt: 'expiresAt',
  /** Partition attribute of each listing index. */
  partition: {
    log: 'logPk',
    user: 'userPk',
    family: 'familyPk',
    url: 'urlPk',
    status: 'statusPk',
    ffscan: 'ffscanPk',
    mediainfo: 'mediainfoPk',
    scanReport: 'scanReportPk',
  },
} as const;

/** A listing index, by the partition attribute it is keyed on. */
export type MediaLogPartitionKind = keyof typeof MEDIA_LOG_ATTRIBUTES.partition;

/** The status indexes: one per status field. */
export const STATUS_INDEX_KINDS = ['status', 'ffscan', 'mediainfo', 'scanReport'] as const satisfies readonly MediaLogPartitionKind[];

/** Name of the listing index over a partition attribute, e.g. `user-by-send`. */
export function mediaLogIndexName(kind: MediaLogPartitionKind): string {
  const names: Record<MediaLogPartitionKind, string> = {
    log: 'log-by-send',
    user: 'user-by-send',
    family: 'family-by-send',
    url: 'url-by-send',
    status: 'status-by-send',
    ffscan: 'ffscan-status-by-send',
    mediainfo: 'mediainfo-status-by-send',
    scanReport: 'scan-report-status-by-send',
  };
  return names[kind];
}

/*
 * The access pattern each listing index serves (DESIGN.md 7b, round four). No index holds a status:
 * a status change would rewrite every index item of its entry (the log, user and url partitions
 * took every write of the pipeline). Index items hold keys, and the user id where a listing checks
 * the caller's scope on them; a page reads its entries by key (BatchGetItem), and a status filter
 * is checked on those entries.
 * - log-by-send: every entry, newest or oldest first (root and admin without a user filter), and
 *   time ranges: `LOG#<shard>`, all time, 5 shards (model/shards.ts), merged by the page.
 * - user-by-send: the entries of one user, `USER#<id>#<shard>`, all time, 2 shards (a customer
 *   may send 40 % of the traffic); several users are merged in send order.
 * - family-by-send: the entries of one family (a top user and its sub users, DESIGN.md 7b round
 *   five), `FAMILY#<id>#<shard>`, all time, sharded like a user: a user's or parent's own listing
 *   reads it whatever the family's size, where merging every member's shards grew with the family.
 * - url-by-send: an exact url, `<hash>` and `<hash>#<shard>`, all time, 2 shards (one url may take
 *   40 % of the requests); its total is counted in its partitions within the count budget (a url
 *   keeps no counters), so its items are as small as keys can be.
 * - status-by-send and one per other status field: a filter on a status value that is a needle in
 *   the log (pending, processing, warning, error, skipped; no item for `success`, which nearly
 *   every entry ends with), `<value>#<shard>`, all time (a status change knows the entry's id, not
 *   its month). A status change rewrites only its own field's index item, and only when the value
 *   moves in or out of an indexed value.
 */

const { partition, sendKey, userId } = MEDIA_LOG_ATTRIBUTES;

function listingIndex(kind: MediaLogPartitionKind, projected: readonly string[], warmWrites?: number): IndexDefinition {
  return {
    indexName: mediaLogIndexName(kind),
    partitionKey: { name: partition[kind], type: 'S' },
    sortKey: { name: sendKey, type: 'S' },
    projection: projected.length === 0 ? { type: 'KEYS_ONLY' } : { type: 'INCLUDE', attributes: projected },
    ...(warmWrites === undefined ? {} : { warmWrites }),
  };
}

/**
 * Write units per second at the design rate (2,000 requests/s, 8 status changes each: DESIGN.md 7b;
 * test/media-log/warm-throughput.test.ts holds these to functions/media-log/model/shards.ts), for
 * the tables a layout change creates, so that they take the feed from their first second instead
 * of throttling it while DynamoDB adds partitions:
 * - the entries: a put and 8 updates per request, each under a KB: 18,000;
 * - each status index: per request, a put in `pending`, a move to `processing` (a delete and a put)
 *   and a delete at its final value: 8,000 (the other indexes take 2,000, within a new table's 4,000);
 * - the counters: the fold's writes per request, at most 12 units (`npm run bench -- --only key-heat`,
 *   "counters" per lifecycle): 24,000.
 */
export const MEDIA_LOG_WARM_WRITES = { entries: 18_000, statusIndex: 8_000, counters: 24_000 } as const;

/**
 * The media request log: one item per entry, and nothing else, so each change of the log is one
 * write of one item (DESIGN.md section 7b).
 * - `E#<id>`: one entry. Its key is the id, so a retried import cannot store an entry twice and
 *   the `request` filter is one GetItem.
 * The stream (old and new image of every change) feeds `foldMediaLogCounts`, the fold's first
 * stage, which writes each batch's counter deltas to {@link mediaLogDeltasTable}; the second stage
 * adds them to the counters of {@link mediaLogCountsTable}. TTL removes entries past the retention window (none
 * unless the operator sets one); the fold leaves TTL's removals out, so the counters keep the
 * entries until their own items expire, and listings start at the window whatever TTL has removed.
 * Layout 2: the table of the previous layout (statuses in every index, no shards) cannot be updated
 * to this one in place (docs/operations.md, "Upgrading the media log").
 */
export const mediaLogTable: TableDefinition = {
  ...TABLE_NAMES.mediaLog,
  partitionKey: { name: 'pk', type: 'S' },
  indexes: [
    listingIndex('log', [userId]),
    listingIndex('user', []),
    listingIndex('family', []),
    listingIndex('url', [userId]),
    ...STATUS_INDEX_KINDS.map((kind) => listingIndex(kind, [userId], MEDIA_LOG_WARM_WRITES.statusIndex)),
  ],
  warmWrites: MEDIA_LOG_WARM_WRITES.entries,
  stream: 'NEW_AND_OLD_IMAGES',
  timeToLiveAttribute: MEDIA_LOG_ATTRIBUTES.expiresAt,
};

/**
 * The fold's first stage (DESIGN.md 7b, round five; functions/media-log/fold/delta-fold.ts), a small
 * table of short-lived items:
 * - `DELTA#<digest of a media-log stream shard>#<part>` / `<sequence of the batch's last record>`:
 *   what a batch of that shard adds to each counter item (`d`), written once, read by the second
 *   stage from this table's stream (new images) and deleted once applied;
 * - `FOLDED#<digest of a media-log stream shard>` / `-`: the last record of that shard folded into
 *   deltas (`w`), written in the same transaction as the deltas, so a batch delivered again adds
 *   nothing.
 * Each holds its expiry (`expiresAt`): a watermark lives as long as a record it covers can be
 * delivered again, and a delta the second stage failed to delete goes with TTL (its REMOVE is not
 * passed to the second stage).
 */
export const mediaLogDeltasTable: TableDefinition = {
  ...TABLE_NAMES.mediaLogDeltas,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [],
  stream: 'NEW_IMAGE',
  timeToLiveAttribute: MEDIA_LOG_ATTRIBUTES.expiresAt,
};

/**
 * The counters of the media log, folded from its stream: how many entries a scope (`ALL`,
 * `USER#<id>`) has in a time bucket (month, day and hour for `ALL`; month for a user), in total
 * (`n`) and per combination of the four statuses (`c<codes>`): `COUNT#<scope>#<level>[#<parent
 * bucket>]` / `<bucket>`, so a range Query of one counter partition returns every bucket of a month
 * or day at once. Each item also holds, per shard of the deltas' stream (a few, whatever the media
 * log's size), the sequence number of the last delta folded into it (`w_<shard>`), the condition that makes a redelivered change count once, and a
 * version (`v`) every fold write adds one to, which a recount checks before it corrects the item.
 * A table of its own: counter writes stay out of the entries' stream.
 */
export const mediaLogCountsTable: TableDefinition = {
  ...TABLE_NAMES.mediaLogCounts,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [],
  warmWrites: MEDIA_LOG_WARM_WRITES.counters,
  timeToLiveAttribute: MEDIA_LOG_ATTRIBUTES.expiresAt,
  // Its layout (TABLE_NAMES) moves with the entries': the entries are copied into a new table and
  // counted anew there, and this table's items would count them a second time.
};
