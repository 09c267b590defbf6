import type { IndexDefinition, TableDefinition } from './table-definition';
import { TABLE_NAMES } from './table-names';

/**
 * Attribute names of the media log table, shared by the writer, the readers and the indexes. Key
 * values are built in `functions/media-log/model/keys.ts`.
 */
export const MEDIA_LOG_ATTRIBUTES = {
  /** Sort key of every listing index: `<send ISO-8601 UTC, ms>#<entry id>`, unique and in time order. */
  sendKey: 'sendKey',
  partition: {
    log: 'logPartition',
    user: 'userPartition',
    url: 'urlPartition',
    status: 'statusPartition',
    ffscan: 'ffscanPartition',
    mediainfo: 'mediainfoPartition',
    scanReport: 'scanReportPartition',
  },
} as const;

/** A listing index partition attribute. */
export type MediaLogPartitionKind = keyof typeof MEDIA_LOG_ATTRIBUTES.partition;

/** The entry attributes projected into every listing index, so a listing never reads the base table. */
export const MEDIA_LOG_ENTRY_ATTRIBUTES = ['id', 'send', 'status', 'statusFfscan', 'statusMediainfo', 'statusScanReport', 'url', 'userId'] as const;

/** Name of the listing index over a partition attribute, e.g. `user-by-send`. */
export function mediaLogIndexName(kind: MediaLogPartitionKind): string {
  const names: Record<MediaLogPartitionKind, string> = {
    log: 'log-by-send',
    user: 'user-by-send',
    url: 'url-by-send',
    status: 'status-by-send',
    ffscan: 'ffscan-status-by-send',
    mediainfo: 'mediainfo-status-by-send',
    scanReport: 'scan-report-status-by-send',
  };
  return names[kind];
}

/*
 * The access pattern each listing index serves, and what it costs (the log's and a user's
 * partitions are monthly; a status change names only the entry id, so status partitions span all
 * time, and so does a url's, which holds the few requests of one url):
 * - log-by-send: Every entry, newest or oldest first (root and admin without a user filter), and
 *   time ranges: partitions `LOG#<month>`, walked month by month and only where the counters say
 *   there are entries; a page reads the entries it returns. All writes of a month land in one
 *   partition (about 1,000 writes/s per partition before throttling).
 * - user-by-send: The entries of one user (`USER#<user-id>#<month>`); several users (a user and its
 *   sub users, a user-id filter) are merged in send order, each partition read in chunks sized by
 *   its share of the counters, so a page reads about what it returns.
 * - url-by-send: Exact url filter: `URL#<sha-256 of the url>` (urls may exceed a key's size; the url
 *   itself is re-checked), the caller's users checked on each entry. A url keeps no counters: its
 *   total is counted in this partition within the count budget (exact up to 2,000 entries read,
 *   else `total-exact: false`), which costs the fold nothing and a url listing a few reads.
 * - status-by-send: `status` filter: `STATUS#<value>`, one partition per value, merged across
 *   values. Chosen when the counters show that this status holds fewer candidates than the
 *   caller's user partitions, so a rare status is not found by scanning.
 * - ffscan-status-by-send: As status-by-send, for the `status-ffscan` filter.
 * - mediainfo-status-by-send: As status-by-send, for the `status-mediainfo` filter.
 * - scan-report-status-by-send: As status-by-send, for the `status-scan-report` filter.
 */

const listingIndexes: IndexDefinition[] = (Object.keys(MEDIA_LOG_ATTRIBUTES.partition) as MediaLogPartitionKind[]).map((kind) => ({
  indexName: mediaLogIndexName(kind),
  partitionKey: { name: MEDIA_LOG_ATTRIBUTES.partition[kind], type: 'S' as const },
  sortKey: { name: MEDIA_LOG_ATTRIBUTES.sendKey, type: 'S' as const },
  projection: { type: 'INCLUDE' as const, attributes: MEDIA_LOG_ENTRY_ATTRIBUTES },
}));

/**
 * The media request log: one item per entry, and nothing else, so each change of the log is one
 * write of one item (DESIGN.md section 7b).
 * - `ENTRY#<id>` / `ENTRY`: one entry, carrying one partition value per listing index. Its key is
 *   the id, so a retried import cannot store an entry twice and the `request` filter is one GetItem.
 * The stream (old and new image of every change) feeds `foldMediaLogCounts`, which keeps the
 * counters of {@link mediaLogCountsTable}. No TTL: expiring entries would leave the counters behind.
 */
export const mediaLogTable: TableDefinition = {
  ...TABLE_NAMES.mediaLog,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: listingIndexes,
  stream: 'NEW_AND_OLD_IMAGES',
};

/**
 * The counters of the media log, folded from its stream: how many entries a scope (`ALL`,
 * `USER#<id>`) has in a time bucket (month, day, hour, ten minutes for `ALL`; month, day for a
 * user), in total (`n`) and per combination of the four
 * statuses (`c<codes>`): `COUNT#<scope>#<level>[#<parent bucket>]` / `<bucket>`, so a range Query of
 * one counter partition returns every bucket of a month or day at once. Each item also holds, per
 * stream shard, the sequence number of the last change folded into it (`w_<shard>`), the condition
 * that makes a redelivered change count once. A table of its own: counter writes stay out of the
 * entries' stream, and the stream's consumers read entries only.
 */
export const mediaLogCountsTable: TableDefinition = {
  ...TABLE_NAMES.mediaLogCounts,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [],
};
