import type { StreamConsumerDefinition } from '../../shared/deployment/function-definitions';
import { COUNTER_KEY_PREFIX, ENTRY_KEY_PREFIX, keysStartingWith } from '../model/keys';

/**
 * The fold of the media log's counters (DESIGN.md section 7b): the consumer of the media log
 * table's stream, which turns each change of an entry into counter deltas and writes each counter
 * item once per batch, exactly once per record (functions/media-log/fold/count-fold.ts).
 */
export const foldMediaLogCountsFunction = {
  name: 'foldMediaLogCounts',
  handler: 'functions/media-log/fold/fold-media-log-counts.ts',
  description: 'the media log counters: folds each change of an entry from the table stream into its counters',
  table: 'MediaLog',
  // Entries are the only items of the table; the filter keeps it so if another kind of item is added.
  keyPrefixes: [ENTRY_KEY_PREFIX],
  // A batch writes each counter item it touches once, so the bigger the batch, the fewer writes per
  // record: a user's counter is written once per batch however many of its changes the batch holds.
  // At the design rate a shard takes ~1,000 records/s, so a 5 s window fills batches of a few
  // thousand records; Lambda also ends a batch at 6 MB of payload (~4,000 records of this table).
  // The key-heat bench plays these batches: they keep the counters at ~2 writes per lifecycle.
  batchSize: 10_000,
  maxBatchingWindowSeconds: 5,
  // The longest window: Lambda ends each with one more call (no records), and the fold keeps no
  // state in it; the window is only there to name the shard.
  tumblingWindowSeconds: 900,
  // A batch writes about a thousand counter items, 64 at once in AWS: about a second, with room
  // for DynamoDB's retries.
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
    mediaLogCounts: [{ actions: ['UpdateItem'], partitions: [keysStartingWith(COUNTER_KEY_PREFIX)], returnValues: ['ALL_NEW', 'ALL_OLD'] }],
  },
} as const satisfies StreamConsumerDefinition;

/**
 * How long a fold watermark is kept after its last write: until no record it covers can be
 * delivered again. Lambda delivers no record older than the mapping's maximum record age, and an
 * invocation that started just before runs at most the function's timeout; five minutes spare.
 * Without this, long-lived counters (a month's) would collect a watermark per shard the stream ever
 * had; with it, each holds those of the shards that wrote it in about the last hour.
 */
export const WATERMARK_RETENTION_SECONDS = foldMediaLogCountsFunction.maximumRecordAgeSeconds + foldMediaLogCountsFunction.timeoutSeconds + 300;
