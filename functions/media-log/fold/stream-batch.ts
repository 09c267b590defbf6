import type { DynamoDBStreamEvent } from 'aws-lambda';

/**
 * A batch of a table's stream as a stage of the fold (and the live notifier) receives it, and what
 * every such consumer reads from one: its shard, where it came from, how far behind it is. Apart
 * from either stage's handler, so that neither bundle loads the other.
 */

/**
 * A batch of a table's stream as a fold stage's event source mapping delivers it. The mapping runs
 * with a tumbling window, the one way Lambda names the batch's shard in the event (`shardId`,
 * https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html); each stage keeps a
 * watermark per shard, so it needs the name.
 */
export interface MediaLogStreamEvent extends DynamoDBStreamEvent {
  readonly shardId?: string;
  readonly eventSourceARN?: string;
  readonly window?: { readonly start: string; readonly end: string };
  readonly state?: Record<string, string>;
  readonly isFinalInvokeForWindow?: boolean;
  readonly isWindowTerminatedEarly?: boolean;
}

/** The answer a tumbling window requires (`state`, kept empty: the counters are the state). */
export interface MediaLogStreamResponse {
  readonly state: Record<string, string>;
  readonly batchItemFailures: readonly { readonly itemIdentifier: string }[];
}

/** Seconds between the oldest record of the batch and now: how far the stage trails its stream. */
export function lagSeconds(event: MediaLogStreamEvent): number | undefined {
  const times = (event.Records ?? []).map((record) => record.dynamodb?.ApproximateCreationDateTime).filter((time): time is number => typeof time === 'number');
  return times.length === 0 ? undefined : Math.max(0, Date.now() / 1000 - Math.min(...times));
}

/** The shard that a batch's event names; a fold stage keeps a watermark per shard, so an event without one is refused. */
export function shardOf(event: MediaLogStreamEvent): string {
  if (typeof event.shardId !== 'string' || event.shardId === '') {
    throw new Error('The stream event names no shardId: the fold keeps a watermark per shard, so its event source mapping must use a tumbling window.');
  }
  return event.shardId;
}

/** Where a batch came from, for the report of a record skipped. */
export function batchSource(event: MediaLogStreamEvent): { shardId: string; streamArn?: string } {
  const streamArn = event.eventSourceARN ?? event.Records?.[0]?.eventSourceARN;
  return { shardId: event.shardId ?? '', ...(streamArn === undefined ? {} : { streamArn }) };
}
