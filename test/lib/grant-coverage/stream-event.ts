import type { AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';
import type { MediaLogStreamEvent } from '../../../functions/media-log/fold/stream-batch';

/**
 * A batch of a table's stream as a DynamoDB event source mapping with a tumbling window hands it
 * to its function (https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html): one
 * shard named, its records in order, keys and images in DynamoDB JSON.
 */

/** One change of one item: its image before and after (no `before` for an insert, no `after` for a removal). */
export interface ItemChange {
  readonly before?: Record<string, unknown>;
  readonly after?: Record<string, unknown>;
}

/** Where the batch comes from. */
export interface BatchSource {
  readonly tableName: string;
  readonly shardId: string;
  /** The table's key attributes, which each record's `Keys` hold. */
  readonly keys: readonly string[];
}

/** Stream sequence numbers have 21 to 40 digits; the batch's are consecutive from this one. */
const FIRST_SEQUENCE = 10n ** 20n;

function image(item: Record<string, unknown>): Record<string, AttributeValue> {
  return marshall(item) as Record<string, SdkAttributeValue> as Record<string, AttributeValue>;
}

function record(change: ItemChange, index: number, source: BatchSource, streamArn: string): DynamoDBRecord {
  const item = change.after ?? change.before;
  if (item === undefined) throw new Error('A stream record needs an image before or after the change.');
  const keys = Object.fromEntries(source.keys.map((key) => [key, item[key]]));
  return {
    eventID: `${source.shardId}-${index}`,
    eventName: change.before === undefined ? 'INSERT' : change.after === undefined ? 'REMOVE' : 'MODIFY',
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'eu-west-1',
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: Math.floor(Date.now() / 1000),
      Keys: image(keys),
      ...(change.after ? { NewImage: image(change.after) } : {}),
      ...(change.before ? { OldImage: image(change.before) } : {}),
      SequenceNumber: String(FIRST_SEQUENCE + BigInt(index)),
      SizeBytes: JSON.stringify(change).length,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

/** The event of one batch holding `changes`, in order, all from one shard. */
export function streamBatchEvent(changes: readonly ItemChange[], source: BatchSource): MediaLogStreamEvent {
  const streamArn = `arn:aws:dynamodb:eu-west-1:123456789012:table/${source.tableName}/stream/2026-01-01T00:00:00.000`;
  const now = new Date();
  return {
    Records: changes.map((change, index) => record(change, index, source, streamArn)),
    shardId: source.shardId,
    window: { start: now.toISOString(), end: new Date(now.getTime() + 900_000).toISOString() },
    state: {},
    isFinalInvokeForWindow: false,
    isWindowTerminatedEarly: false,
  };
}
