import type { QueueConsumerDefinition } from '../../shared/deployment/function-definitions';
import { USER_PARTITIONS } from '../../shared/deployment/users-table-access';
import { ENTRY_KEY_PREFIX } from '../model/keys';

/** Partitions of the entry items (`E#<id>`), as model/keys.ts builds them. */
const ENTRY_PARTITIONS = [`${ENTRY_KEY_PREFIX}*`] as const;

/**
 * The consumer of the media pipeline feed (DESIGN.md sections 7a and 7b). Each message is one
 * conditional write of one entry: a put of a new request, an update of a status. It reads an
 * entry only when a write was refused, to tell a duplicate from a conflict or an unknown entry.
 * It never touches a counter: the fold does, from the table's stream.
 */
export const ingestMediaLogFunction = {
  name: 'ingestMediaLog',
  handler: 'functions/media-log/feed/ingest-media-log.ts',
  description: 'the media pipeline feed consumer: media requests and status changes into the media log',
  queue: 'MediaLogEvents',
  // 100 messages are 100 small conditional writes, sixteen at a time: well under a second of work,
  // far inside the timeout; a batch waits at most 2 s to fill, so a status shows in the log within
  // seconds while a busy pipeline is consumed in few invocations.
  batchSize: 100,
  maxBatchingWindowSeconds: 2,
  // Five receives: a status that arrived before its request gets four retries (the visibility
  // timeout apart) for the request to land; a malformed message reaches the dead-letter queue.
  maxReceiveCount: 5,
  // Section 7b's peak, 2,000 requests/s with 8 status changes each, is 18,000 messages/s: 180
  // batches of 100 a second, some 90 at once at about half a second each. 100 keeps that pace; a
  // larger burst waits in the queue (14 days of retention) instead of taking the account's
  // concurrency (1,000 by default) from the authorizer and the routes.
  maxConcurrency: 100,
  // A batch takes seconds; a minute leaves room for DynamoDB retries without hiding a failed
  // batch's messages long (the queue hides them six times the timeout, as AWS advises:
  // https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html#services-sqs-queueconfig).
  timeoutSeconds: 60,
  grants: {
    mediaLog: [
      { actions: ['GetItem', 'PutItem', 'UpdateItem'], partitions: ENTRY_PARTITIONS },
    ],
    // The family of each new entry's user: its profile's parent, once per batch (entry-writer.ts).
    users: [{ actions: ['BatchGetItem'], partitions: USER_PARTITIONS, attributes: ['pk', 'sk', 'id', 'parentId'] }],
    queues: { MediaLogEvents: ['ReceiveMessage', 'DeleteMessage', 'GetQueueAttributes'] },
  },
} as const satisfies QueueConsumerDefinition;
