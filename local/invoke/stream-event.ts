import type { MediaLogStreamEvent } from '../../functions/media-log/fold/stream-batch';
import { UsageError } from '../cli/cli-errors';
import { withLocalFold } from '../fold/media-log-fold';

/**
 * DynamoDB Streams events of the local media log, for `invoke`: one built from what the local
 * stream holds (`--generate-event STREAM`), and a replayed or hand-made event given the shard it
 * came from when it does not name one (a `sam local generate-event dynamodb update` event does not).
 */

/**
 * The event the fold would receive for the entry changes the local stream holds (the last `last`
 * of them): records of one shard, shaped as Lambda delivers them with its tumbling window
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html), so that `invoke
 * foldMediaLogCounts` runs it exactly as the mapping would run that batch again.
 */
export async function generateStreamEvent(last?: number): Promise<MediaLogStreamEvent> {
  const held = await withLocalFold((fold) => fold.heldRecords());
  // DynamoDB Local keeps one shard per table; with several, the newest changes are in the last one.
  const shard = [...held].reverse().find((candidate) => candidate.records.length > 0) ?? held[held.length - 1];
  if (shard === undefined) throw new UsageError('the media log has no stream shard yet.');
  const records = last === undefined ? shard.records : shard.records.slice(-last);
  const now = new Date().toISOString();
  return { Records: records, shardId: shard.shardId, eventSourceARN: shard.streamArn, window: { start: now, end: now }, state: {}, isFinalInvokeForWindow: false, isWindowTerminatedEarly: false };
}

/**
 * `event`, naming the shard its records came from: as given when it names one, else the local
 * stream's only shard. The fold keeps its watermarks per shard, so a replay must name the shard
 * the records were first folded from, or they would count again.
 */
export async function withShardOfLocalStream(event: unknown): Promise<unknown> {
  const given = event as MediaLogStreamEvent;
  if (typeof given.shardId === 'string' && given.shardId !== '') return event;
  const held = await withLocalFold((fold) => fold.heldRecords());
  if (held.length !== 1) throw new UsageError(`the event names no shardId and the local stream has ${held.length} shards: add the shardId the records came from.`);
  return { ...given, shardId: (held[0] as { shardId: string }).shardId };
}
