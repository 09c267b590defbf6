import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { counterChanges, summed, SEQUENCE_DIGITS, type CounterChanges, type EntryChange } from './stream-changes';

/**
 * Folding the media log's stream into its counters exactly once (DESIGN.md section 7b). A batch of
 * stream records comes from one shard, in the shard's order; its deltas are summed per counter
 * item and each counter item is written once, with an ADD of the sums and, in the same update, the
 * shard's watermark: the sequence number of the last record folded into that item.
 *
 * Why a repeat changes nothing: Lambda delivers a shard's records in order, and retries a failed
 * batch (whole, or bisected into halves) before it moves on. So for each counter item and shard,
 * the records already folded into it are exactly those up to its watermark, and every write is
 * conditioned on that:
 * - First attempt, `attribute_not_exists(w) OR w < :first`: the item has folded nothing of this
 *   shard at or after the batch's first record touching it. A redelivered batch, a retry after a
 *   failure that wrote some items and not others, or one half of a bisected batch whose items
 *   were written by the whole batch, fails this condition on every item it already wrote.
 * - When it fails, the refused write names the stored watermark, and the fold writes only the
 *   records after it, on condition `w = :seen`: nothing else folded into the item meanwhile (two
 *   deliveries of one range at once, which `npm start` and a CLI command can make locally), so the
 *   records up to the watermark stay counted once and those after it are added once.
 * A watermark is the sequence number zero-padded to 40 digits, then `@` and the time it was written:
 * text order is stream order, and the time lets a watermark be dropped once no record it covers can
 * be delivered again.
 */

/** What a fold of one batch did. */
export interface FoldOutcome {
  /** Counter items the batch moved. */
  readonly counters: number;
  /** Items written (some or all of the batch's records added). */
  readonly written: number;
  /** Items that had every record of the batch folded in already (a redelivery). */
  readonly alreadyFolded: number;
}

/** Counter writes in flight at once unless told otherwise (fold-config.ts sets it per environment). */
const COUNTER_WRITES_IN_FLIGHT = 8;

/**
 * How long a watermark is kept after its last write: a stream keeps records 24 hours
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html), so after a day
 * and an hour no record a watermark covers can be delivered again, and its shard (closed by then,
 * or written again since) needs it no more. Without this, long-lived counters (a month's) would
 * collect a watermark per shard the stream ever had.
 */
export const WATERMARK_RETENTION_SECONDS = 25 * 3600;

/** Attempts of one counter item: each refused attempt found another delivery folded some records first. */
const MAX_ATTEMPTS = 5;

/** The attribute holding a shard's watermark: `w_` and a digest of the shard id (ids are long; names count toward item size). */
export function watermarkAttribute(shardId: string): string {
  return `w_${createHash('sha256').update(shardId).digest('base64url').slice(0, 12)}`;
}

/** The sequence number a stored watermark names. */
function sequenceOf(watermark: string): string {
  return watermark.slice(0, SEQUENCE_DIGITS);
}

/** A text attribute of an item as the SDK gives it back: plain (document client) or marshalled (a refused write's `Item`). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const marshalled = (value as { S?: unknown } | undefined)?.S;
  return typeof marshalled === 'string' ? marshalled : undefined;
}

/** Writes the counters of the media log from batches of its stream, exactly once per record. */
export class CountFold {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly countsTableName: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
    /** Counter writes in flight at once: each item of a batch is written once, items are independent. */
    private readonly writesInFlight: number = COUNTER_WRITES_IN_FLIGHT,
  ) {}

  /** Fold the changes of one batch of shard `shardId` (in stream order) into the counters. */
  public async apply(shardId: string, changes: readonly EntryChange[]): Promise<FoldOutcome> {
    const counters = [...counterChanges(changes).values()];
    const attribute = watermarkAttribute(shardId);
    const outcomes = await mapConcurrently(counters, this.writesInFlight, (counter) => this.foldInto(counter, attribute));
    const written = outcomes.filter((outcome) => outcome === 'written').length;
    return { counters: counters.length, written, alreadyFolded: counters.length - written };
  }

  private async foldInto(counter: CounterChanges, attribute: string): Promise<'written' | 'already-folded'> {
    let parts = counter.parts;
    let seen: string | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const counts = summed(parts);
      const last = parts[parts.length - 1];
      // Changes that cancel out within the batch move nothing: nothing to write, nothing to mark.
      if (last === undefined || counts.size === 0) return 'already-folded';
      try {
        const { Attributes } = await this.client.send(this.update(counter.key, counts, attribute, last.sequence, (parts[0] as typeof last).sequence, seen));
        await this.dropExpiredWatermarks(counter.key, Attributes ?? {});
        return 'written';
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const stored = textOf(error.Item?.[attribute]);
        if (stored === undefined) throw new Error(`A counter write was refused without a watermark to explain it (${counter.key.pk} ${counter.key.sk}).`, { cause: error });
        parts = parts.filter((part) => part.sequence > sequenceOf(stored));
        seen = stored;
        if (parts.length === 0) return 'already-folded';
        if (attempt >= MAX_ATTEMPTS) throw new Error(`Counter ${counter.key.pk} ${counter.key.sk} was folded by other deliveries ${attempt} times in a row.`, { cause: error });
      }
    }
  }

  private update(key: CounterChanges['key'], counts: ReadonlyMap<string, number>, attribute: string, last: string, first: string, seen: string | undefined): UpdateCommand {
    const names: Record<string, string> = { '#w': attribute };
    const values: Record<string, unknown> = { ':mark': `${last}@${this.nowSeconds()}` };
    const additions = [...counts].map(([name, value], index) => {
      names[`#a${index}`] = name;
      values[`:v${index}`] = value;
      return `#a${index} :v${index}`;
    });
    if (seen === undefined) values[':first'] = first;
    else values[':seen'] = seen;
    return new UpdateCommand({
      TableName: this.countsTableName,
      Key: { ...key },
      UpdateExpression: `ADD ${additions.join(', ')} SET #w = :mark`,
      ConditionExpression: seen === undefined ? 'attribute_not_exists(#w) OR #w < :first' : '#w = :seen',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  }

  /**
   * Remove the watermarks of `item` older than {@link WATERMARK_RETENTION_SECONDS}, each on
   * condition that it still holds the value seen, so one its shard wrote meanwhile stays.
   */
  private async dropExpiredWatermarks(key: CounterChanges['key'], item: Record<string, unknown>): Promise<void> {
    const oldest = this.nowSeconds() - WATERMARK_RETENTION_SECONDS;
    const expired = Object.entries(item).filter(([name, value]) => name.startsWith('w_') && typeof value === 'string' && Number(value.slice(SEQUENCE_DIGITS + 1)) < oldest);
    if (expired.length === 0) return;
    const names = Object.fromEntries(expired.map(([name], index) => [`#x${index}`, name]));
    const values = Object.fromEntries(expired.map(([, value], index) => [`:x${index}`, value]));
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.countsTableName,
          Key: { ...key },
          UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
          ConditionExpression: Object.keys(names).map((name, index) => `${name} = :x${index}`).join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
    } catch (error) {
      // A shard wrote its watermark again meanwhile: it is not expired after all.
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
