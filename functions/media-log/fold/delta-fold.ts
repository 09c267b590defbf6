import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ContendedWriteError, MediaLogError } from '../model/errors';
import { sequenceKeyOf } from './watermarks';
import { DELTA_ATTRIBUTES, DELTA_LIMITS, deltaKeys, deltaWrites, type DeltaLimits, type DeltaWrite } from './delta-items';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import type { EntryChange } from './stream-changes';
import { WATERMARK_RETENTION_SECONDS } from './stream-functions';

/**
 * The fold's first stage (DESIGN.md 7b, round five): a batch of one media-log stream shard becomes
 * delta items (delta-items.ts), written with the shard's watermark item in one `TransactWriteItems`.
 * The transaction writes all or nothing, so a record is in the deltas exactly once when:
 * - the watermark write is conditioned on `attribute_not_exists(w) OR w < :first`: a redelivered
 *   batch, or one half of a bisected batch whose whole was written, is refused as a whole;
 * - a refused transaction names the stored watermark (ReturnValuesOnConditionCheckFailure), and
 *   the records after it are written instead, on condition `w = :seen` (two deliveries of a range at
 *   once, as `npm start` and a CLI command can make locally).
 * That is count-fold.ts's rule, on one item per shard instead of on every counter item a shard
 * touches: the counters themselves are written by the second stage only.
 */

/** Attempts of one transaction: each refused attempt found another delivery folded some of its records first. */
const MAX_ATTEMPTS = 5;

/** What the first stage did with one batch. */
export interface DeltaFoldOutcome {
  /** Transactions written. */
  readonly transactions: number;
  /** Delta items written. */
  readonly deltaItems: number;
  /** Records found folded already (a redelivery), and left out. */
  readonly alreadyFolded: number;
}

/** Writes the deltas of batches of the media log's stream, exactly once per record. */
export class DeltaFold {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly deltasTableName: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
    private readonly limits: DeltaLimits = DELTA_LIMITS,
  ) {}

  /** Fold the changes of one batch of shard `shardId` (in stream order) into delta items. */
  public async apply(shardId: string, changes: readonly EntryChange[]): Promise<DeltaFoldOutcome> {
    let transactions = 0;
    let deltaItems = 0;
    let alreadyFolded = 0;
    let pending = [...changes];
    let seen: string | undefined;
    for (let attempt = 1; pending.length > 0; ) {
      const [write] = deltaWrites(pending, this.limits);
      const run = write as DeltaWrite;
      const refused = await this.write(shardId, run, seen);
      if (refused === undefined) {
        transactions += 1;
        deltaItems += run.items.length;
        pending = pending.filter((change) => change.sequence > run.last);
        seen = undefined;
        attempt = 1;
        continue;
      }
      const folded = sequenceKeyOf(refused);
      const before = pending.length;
      pending = pending.filter((change) => change.sequence > folded);
      alreadyFolded += before - pending.length;
      seen = refused;
      if (attempt >= MAX_ATTEMPTS) throw new ContendedWriteError(`The deltas of stream shard ${shardId} were written by other deliveries ${attempt} times in a row.`, new Error(refused));
      attempt += 1;
    }
    return { transactions, deltaItems, alreadyFolded };
  }

  /** Send one transaction; the stored watermark when its condition refused it. */
  private async write(shardId: string, run: DeltaWrite, seen: string | undefined): Promise<string | undefined> {
    const now = this.nowSeconds();
    const expiry = { [MEDIA_LOG_ATTRIBUTES.expiresAt]: now + WATERMARK_RETENTION_SECONDS };
    const watermark = `${run.last}@${now}`;
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            ...run.items.map((deltas, part) => ({ Put: { TableName: this.deltasTableName, Item: { ...deltaKeys.delta(shardId, run.last, part), [DELTA_ATTRIBUTES.deltas]: deltas, ...expiry } } })),
            {
              Update: {
                TableName: this.deltasTableName,
                Key: deltaKeys.mark(shardId),
                UpdateExpression: 'SET #w = :mark, #e = :expires',
                ConditionExpression: seen === undefined ? 'attribute_not_exists(#w) OR #w < :first' : '#w = :seen',
                ExpressionAttributeNames: { '#w': DELTA_ATTRIBUTES.watermark, '#e': MEDIA_LOG_ATTRIBUTES.expiresAt },
                ExpressionAttributeValues: { ':mark': watermark, ':expires': now + WATERMARK_RETENTION_SECONDS, ...(seen === undefined ? { ':first': run.first } : { ':seen': seen }) },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
          ],
        }),
      );
      return undefined;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reason = error.CancellationReasons?.[run.items.length];
      // Any other reason (a conflict with a transaction on the same items, throttling) fails the batch: Lambda retries it.
      if (reason?.Code !== 'ConditionalCheckFailed') throw error;
      const stored = reason.Item?.[DELTA_ATTRIBUTES.watermark]?.S;
      if (stored === undefined) throw new MediaLogError(`A delta write of stream shard ${shardId} was refused without a watermark to explain it.`, { cause: error });
      return stored;
    }
  }
}
