import type { StreamConsumerDefinition } from '../../shared/deployment/function-definitions';
import { COUNTER_KEY_PREFIX, DELTA_KEY_PREFIX, ENTRY_KEY_PREFIX, FOLD_MARK_KEY_PREFIX, keysStartingWith } from '../model/keys';

/**
 * The fold of the media log's counters in two stages (DESIGN.md 7b, round five). Its concurrency is
 * bounded by the streams' shards, one invocation per shard at a time (parallelization factor 1):
 * - the first stage runs once per media-log stream shard (one per table partition: ~18 on the
 *   first day at the design rate, ~900 after 90 days), and each invocation makes one
 *   `TransactWriteItems` of at most 48 items per batch, whatever the shard count;
 * - the second stage runs once per shard of the deltas' stream (a small table: a few shards) with
 *   at most `FOLD_COUNTER_WRITES_IN_FLIGHT` (64) counter writes in flight each.
 */

/**
 * The fold's first stage: the consumer of the media log table's stream, which turns each batch's
 * changes of entries into counter deltas, summed per counter item, and writes them with the
 * shard's watermark in one transaction, exactly once per record (functions/media-log/fold/delta-fold.ts).
 */
export const foldMediaLogCountsFunction = {
  name: 'foldMediaLogCounts',
  handler: 'functions/media-log/fold/fold-media-log-counts.ts',
  description: 'the media log counters, first stage: folds each batch of entry changes from the table stream into counter deltas',
  table: 'MediaLog',
  // Entries are the only items of the table; the filter keeps it so if another kind of item is added.
  keyPrefixes: [ENTRY_KEY_PREFIX],
  // A batch's deltas are summed per counter item, so the bigger the batch, the smaller its delta
  // items: a user's counter is one delta per batch however many of its changes the batch holds. At
  // the design rate a shard takes ~1,000 records/s, so a 5 s window fills batches of a few thousand
  // records; Lambda also ends a batch at 6 MB of payload (~4,000 records of this table).
  batchSize: 10_000,
  maxBatchingWindowSeconds: 5,
  // The longest window: Lambda ends each with one more call (no records), and the fold keeps no
  // state in it; the window is only there to name the shard.
  tumblingWindowSeconds: 900,
  // A batch is one transaction (rarely a few): seconds at most, with room for DynamoDB's retries.
  timeoutSeconds: 120,
  // Retries end an hour after a record was written: a batch that fails that long is described in
  // the failure queue and skipped, and `media-log recount` repairs the counters it missed (docs/operations.md,
  // "Watching, replaying and repairing the fold"). It also bounds how long a watermark must be kept.
  maximumRecordAgeSeconds: 3600,
  failureQueue: 'MediaLogFoldFailures',
  // A record the fold cannot read is reported to the same queue by the fold itself, and skipped.
  failureQueueUrlEnv: 'FOLD_FAILURE_QUEUE_URL',
  skippedRecordsMetric: 'MediaLogFoldSkipped',
  grants: {
    mediaLogDeltas: [
      // Each batch's delta items, and the shard's watermark beside them, in one transaction.
      { actions: ['PutItem'], partitions: [keysStartingWith(DELTA_KEY_PREFIX)], inTransaction: true },
      { actions: ['UpdateItem'], partitions: [keysStartingWith(FOLD_MARK_KEY_PREFIX)], returnValues: ['ALL_OLD'], inTransaction: true },
    ],
  },
} as const satisfies StreamConsumerDefinition;

/**
 * The fold's second stage: the consumer of the deltas table's stream, which sums the deltas of a
 * batch per counter item, writes each counter item once per batch, exactly once per delta
 * (functions/media-log/fold/count-fold.ts), and deletes the deltas it applied.
 */
export const applyMediaLogDeltasFunction = {
  name: 'applyMediaLogDeltas',
  handler: 'functions/media-log/fold/apply-media-log-deltas.ts',
  description: 'the media log counters, second stage: adds the deltas of the first stage to the counters',
  table: 'MediaLogDeltas',
  keyPrefixes: [DELTA_KEY_PREFIX],
  // Only new deltas: the stage's own deletes and TTL's removals are no work.
  eventNames: ['INSERT'],
  // Each record is a delta item of up to ~64 KB, so Lambda's 6 MB payload ends a batch first when
  // the items are large; at many media-log shards the items are small and the window sums hundreds
  // of them, each counter item written once for all. Every batch writes the counter item of each
  // user it holds (~5 KB, 5 write units), so the window sets most of the counters' cost: measured
  // (`key-heat-shards`, an ordinary moment), 5 s cost 7.3 write units a lifecycle at 3,600 media-log
  // shards, 10 s cost 3.95 and keep a lifecycle within its 40. The totals' lag grows by as much.
  batchSize: 10_000,
  maxBatchingWindowSeconds: 10,
  tumblingWindowSeconds: 900,
  // A batch writes a few thousand counter items, 64 at once in AWS: a few seconds, with room for DynamoDB's retries.
  timeoutSeconds: 120,
  maximumRecordAgeSeconds: 3600,
  failureQueue: 'MediaLogDeltaFailures',
  failureQueueUrlEnv: 'DELTA_FAILURE_QUEUE_URL',
  skippedRecordsMetric: 'MediaLogFoldSkipped',
  grants: {
    mediaLogCounts: [{ actions: ['UpdateItem'], partitions: [keysStartingWith(COUNTER_KEY_PREFIX)], returnValues: ['ALL_NEW', 'ALL_OLD'] }],
    // The deltas it applied, deleted 25 at a time.
    mediaLogDeltas: [{ actions: ['BatchWriteItem'], partitions: [keysStartingWith(DELTA_KEY_PREFIX)] }],
  },
} as const satisfies StreamConsumerDefinition;

/**
 * How long a fold watermark (either stage's) is kept after its last write: until no record it covers can be
 * delivered again. Lambda delivers no record older than the mapping's maximum record age, and an
 * invocation that started just before runs at most the function's timeout; five minutes spare.
 * Without this, long-lived counters (a month's) would collect a watermark per shard the stream ever
 * had; with it, each holds those of the shards that wrote it in about the last hour.
 */
export const WATERMARK_RETENTION_SECONDS = foldMediaLogCountsFunction.maximumRecordAgeSeconds + foldMediaLogCountsFunction.timeoutSeconds + 300;
