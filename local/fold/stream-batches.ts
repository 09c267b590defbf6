import type { _Record as ApiRecord } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamConsumerDefinition } from '../../functions/shared/deployment/function-definitions';

/**
 * The batches a DynamoDB event source mapping hands its function, as the local stream poller
 * (stream-poller.ts) makes them: cut by batch size and payload, filtered by the consumer's key
 * prefixes, each record shaped as the Lambda event carries it.
 */

/** What the poller hands the consumer: the event Lambda would deliver for one batch of one shard. */
export interface StreamBatchEvent {
  readonly Records: DynamoDBRecord[];
  readonly shardId: string;
  readonly eventSourceARN: string;
  readonly window: { readonly start: string; readonly end: string };
  readonly state: Record<string, string>;
  readonly isFinalInvokeForWindow: false;
  readonly isWindowTerminatedEarly: false;
}

/** Runs the consumer on one batch; throws when it failed. */
export type BatchRunner = (event: StreamBatchEvent) => Promise<unknown>;

/**
 * Most bytes of records one invocation carries: Lambda ends a batch at 6 MB of payload whatever its
 * batch size (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html#services-ddb-batchwindow).
 */
export const MAX_BATCH_PAYLOAD_BYTES = 6 * 1024 * 1024;
/** A stream record as the Lambda event carries it: the API's record, times in epoch seconds, the stream's ARN added. */
export function lambdaRecord(record: ApiRecord, streamArn: string): DynamoDBRecord {
  const { dynamodb, ...rest } = record;
  const created = dynamodb?.ApproximateCreationDateTime;
  return {
    ...(rest as DynamoDBRecord),
    eventSourceARN: streamArn,
    dynamodb: { ...(dynamodb as DynamoDBRecord['dynamodb']), ...(created instanceof Date ? { ApproximateCreationDateTime: created.getTime() / 1000 } : {}) },
  };
}

/**
 * How many records of a shard's backlog (their payload sizes, in order) the next batch holds, as an
 * event source mapping cuts it: up to the batch size, and no more than fit in
 * {@link MAX_BATCH_PAYLOAD_BYTES} (at least one). Equal to the backlog's length while both allow more.
 */
export function batchLength(recordBytes: readonly number[], batchSize: number): number {
  let bytes = 0;
  const limit = Math.min(recordBytes.length, batchSize);
  for (let index = 0; index < limit; index += 1) {
    bytes += recordBytes[index] as number;
    if (bytes > MAX_BATCH_PAYLOAD_BYTES) return Math.max(1, index);
  }
  return limit;
}

/**
 * Whether the consumer's filter lets a record through: its partition key starts with one of the
 * prefixes and, when the consumer names events, its event is one of them (lib/constructs/stream-consumers.ts).
 */
export function passesFilter(record: ApiRecord, consumer: Pick<StreamConsumerDefinition, 'keyPrefixes' | 'eventNames'>): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S;
  if (consumer.eventNames !== undefined && !(consumer.eventNames as readonly string[]).includes(record.eventName ?? '')) return false;
  return typeof pk === 'string' && consumer.keyPrefixes.some((prefix) => pk.startsWith(prefix));
}
