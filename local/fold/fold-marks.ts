import { BatchGetCommand, type BatchGetCommandOutput, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { chunksOf } from '../../functions/shared/chunks';
import { DELTA_ATTRIBUTES, deltaKeys, deltasOfImage } from '../../functions/media-log/fold/delta-items';
import { WATERMARK_RETENTION_SECONDS } from '../../functions/media-log/fold/stream-functions';
import { sequenceKeyOf } from '../../functions/media-log/fold/watermarks';
import { DELTA_KEY_PREFIX } from '../../functions/media-log/model/keys';
import { MEDIA_LOG_ATTRIBUTES } from '../../functions/shared/tables/media-log-table';

/** What the fold's progress check (fold-progress.ts) reads of the deltas table: the first stage's watermarks, and the deltas the second stage has yet to apply. */

/** Most keys of one BatchGetItem (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html). */
const KEYS_PER_BATCH_GET = 100;

/** Each shard's first-stage watermark: the raw sequence number of the last change it folded into deltas. */
export async function firstStageWatermarks(client: DynamoDBDocumentClient, deltasTable: string, shardIds: readonly string[]): Promise<Map<string, string>> {
  const byPk = new Map(shardIds.map((shardId) => [deltaKeys.mark(shardId).pk, shardId]));
  const found = new Map<string, string>();
  for (const chunk of chunksOf(shardIds, KEYS_PER_BATCH_GET)) {
    let keys: Record<string, unknown>[] | undefined = chunk.map((shardId) => deltaKeys.mark(shardId));
    while (keys !== undefined && keys.length > 0) {
      const output: BatchGetCommandOutput = await client.send(new BatchGetCommand({ RequestItems: { [deltasTable]: { Keys: keys, ConsistentRead: true } } }));
      for (const item of output.Responses?.[deltasTable] ?? []) {
        const shardId = byPk.get(String(item.pk));
        const mark = item[DELTA_ATTRIBUTES.watermark];
        if (shardId !== undefined && typeof mark === 'string') found.set(shardId, rawSequence(sequenceKeyOf(mark)));
      }
      keys = output.UnprocessedKeys?.[deltasTable]?.Keys;
    }
  }
  return found;
}

/** Well-formed deltas (those the second stage applies and deletes) written at or before `untilMs`, still in the table. */
export async function unappliedDeltas(client: DynamoDBDocumentClient, deltasTable: string, untilMs: number): Promise<number> {
  const writtenBy = Math.floor(untilMs / 1000) + WATERMARK_RETENTION_SECONDS;
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const output = await client.send(
      new ScanCommand({
        TableName: deltasTable,
        ConsistentRead: true,
        ExclusiveStartKey: start,
        // A delta expires a fixed time after it was written, so its expiry dates it.
        FilterExpression: 'begins_with(pk, :delta) AND #e <= :by',
        ExpressionAttributeNames: { '#e': MEDIA_LOG_ATTRIBUTES.expiresAt },
        ExpressionAttributeValues: { ':delta': DELTA_KEY_PREFIX, ':by': writtenBy },
      }),
    );
    count += (output.Items ?? []).filter((item) => typeof deltasOfImage(item) !== 'string').length;
    start = output.LastEvaluatedKey;
  } while (start !== undefined);
  return count;
}

/**
 * A watermark's sequence key as the sequence number the stream takes: its digits, padded to the
 * 21 digits a sequence number has at least (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html).
 */
function rawSequence(key: string): string {
  return key.slice(2).padStart(21, '0');
}
