import type { QueueConsumerDefinition } from '../shared/deployment/function-definitions';

/** Partitions of the entry items (`ENTRY#<id>`) and of the counter items (`COUNT#…`), as media-log-keys.ts builds them. */
const ENTRY_PARTITIONS = ['ENTRY#*'] as const;
const COUNTER_PARTITIONS = ['COUNT#*'] as const;

/**
 * The consumer of the media pipeline feed (DESIGN.md section 7a). It reads stored entries (by key,
 * one or a batch) and writes only in transactions: new entries with their counters, status changes
 * with the counters they move.
 */
export const ingestMediaLogFunction = {
  name: 'ingestMediaLog',
  handler: 'functions/media-log/ingest-media-log.ts',
  description: 'the media pipeline feed consumer: media requests and status changes into the media log',
  queue: 'MediaLogEvents',
  // 100 messages are about ten entry transactions, or 100 status changes eight at a time: a second
  // or two of work, far inside the timeout; a batch waits at most 2 s to fill, so a status shows in
  // the log within seconds while a busy pipeline is consumed in few invocations.
  batchSize: 100,
  maxBatchingWindowSeconds: 2,
  // Five receives: a status that arrived before its request gets four retries (the visibility
  // timeout apart) for the request to land; a malformed message reaches the dead-letter queue.
  maxReceiveCount: 5,
  // A batch takes seconds; a minute leaves room for DynamoDB retries without hiding a failed
  // batch's messages long (the queue hides them six times the timeout, as AWS advises:
  // https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html#services-sqs-queueconfig).
  timeoutSeconds: 60,
  grants: {
    mediaLog: [
      { actions: ['GetItem', 'BatchGetItem'], partitions: ENTRY_PARTITIONS },
      { actions: ['PutItem', 'UpdateItem'], partitions: [...ENTRY_PARTITIONS, ...COUNTER_PARTITIONS], inTransaction: true },
    ],
    queues: { MediaLogEvents: ['ReceiveMessage', 'DeleteMessage', 'GetQueueAttributes'] },
  },
} as const satisfies QueueConsumerDefinition;
