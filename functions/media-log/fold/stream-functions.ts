import type { StreamConsumerDefinition } from '../../shared/deployment/function-definitions';

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
  keyPrefixes: ['ENTRY#'],
  // A batch writes each counter item it touches once, so the bigger the batch, the fewer writes per
  // record: at 2,000 new entries/s a shard fills 1,000 records in well under a second. The window
  // bounds the lag when the stream is quiet.
  batchSize: 1000,
  maxBatchingWindowSeconds: 1,
  // The longest window: Lambda ends each with one more call (no records), and the fold keeps no
  // state in it; the window is only there to name the shard.
  tumblingWindowSeconds: 900,
  // A batch of 1,000 records writes a few thousand counter items sixteen at a time: seconds, with
  // room for DynamoDB's retries.
  timeoutSeconds: 120,
  failureQueue: 'MediaLogFoldFailures',
  grants: {
    mediaLogCounts: [{ actions: ['UpdateItem'], partitions: ['COUNT#*'], returnValues: ['ALL_NEW', 'ALL_OLD'] }],
  },
} as const satisfies StreamConsumerDefinition;
