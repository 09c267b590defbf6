import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { expiredWatermarks, sequenceKeyOf } from './watermarks';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { VERSION_ATTRIBUTE, watermarkAttribute } from '../model/counters';
import { ContendedWriteError, MediaLogError } from '../model/errors';
import { summed, type CounterChanges } from './counter-deltas';
import { Retention } from '../model/retention';

/**
 * The fold's second stage (DESIGN.md 7b, round five): the counters of the media log written from
 * batches of the deltas' stream (delta-items.ts), exactly once. A batch comes from one shard of that
 * stream, in the shard's order; its deltas are summed per counter item and each counter item is
 * written once, with an ADD of the sums and, in the same update, the shard's watermark: the sequence
 * number of the last record folded into that item. The deltas' stream has a few shards whatever
 * the media log's size, so a counter item holds a few watermarks and takes a few writes a second.
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
 * A watermark is the record's sequence key (stream-changes.ts), then `@` and the time it was
 * written: text order is stream order, and the time lets a watermark be dropped once no record it
 * covers can be delivered again. Every write also adds one to the item's version (`v`), which a
 * recount reads to know that no fold wrote the item while it counted.
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

/** Attempts of one counter item: each refused attempt found another delivery folded some records first. */
const MAX_ATTEMPTS = 5;

/**
 * Most count attributes one counter write adds to. An update expression is at most 4 KB and 300
 * operators (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-expression-parameters),
 * and a batch can move an item between hundreds of status combinations (6^4 of them). 250 additions
 * (`#a249 :v249, `: at most 13 characters each, 3.2 KB) stay within both, even if each addition
 * counted as an operator, with room for the watermark's SET and its condition. Fewer additions per
 * write would mean more writes per item: a whole-log counter item that each of 18 shards moves
 * between some 600 combinations per batch took 127 writes a second with runs of 100 (`key-heat`),
 * over the 100 per item that DESIGN.md 9 allows.
 */
export const MAX_ADDITIONS_PER_WRITE = 250;

/**
 * The parts of a counter's batch cut into consecutive runs that each touch at most
 * {@link MAX_ADDITIONS_PER_WRITE} attributes (a part moves three at most: the total, the old and the
 * new combination). Each run is one write with its own watermark, in stream order, so a delivery that
 * dies between two of them goes on, when retried, from the first run not yet written: exactly as
 * after a batch that died between two counter items.
 */
export function writeRuns(parts: CounterChanges['parts']): CounterChanges['parts'][] {
  const runs: CounterChanges['parts'][] = [];
  let run: CounterChanges['parts'] = [];
  let attributes = new Set<string>();
  for (const part of parts) {
    const touched = [...part.counts.keys()].filter((name) => !attributes.has(name));
    if (run.length > 0 && attributes.size + touched.length > MAX_ADDITIONS_PER_WRITE) {
      runs.push(run);
      run = [];
      attributes = new Set();
    }
    run.push(part);
    for (const name of part.counts.keys()) attributes.add(name);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** A text attribute of an item as the SDK gives it back: plain (document client) or marshalled (a refused write's `Item`). */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const marshalled = (value as { S?: unknown } | undefined)?.S;
  return typeof marshalled === 'string' ? marshalled : undefined;
}

/** What one fold write does to one counter item: the counts it adds (the version's one included) and the watermark it sets. */
export interface CounterWrite {
  readonly key: CounterChanges['key'];
  readonly add: ReadonlyMap<string, number>;
  readonly watermark: { readonly attribute: string; readonly value: string };
}

/**
 * The write that folds `counts` (the sum of a batch's records up to `lastSequence`) of shard
 * `shardId` into one counter item at `nowSeconds`: the fold sends it, and the key-heat bench plays
 * it on its simulated items to weigh them.
 */
export function counterWrite(key: CounterChanges['key'], counts: ReadonlyMap<string, number>, shardId: string, lastSequence: string, nowSeconds: number): CounterWrite {
  return {
    key,
    add: new Map([...counts, [VERSION_ATTRIBUTE, 1]]),
    watermark: { attribute: watermarkAttribute(shardId), value: `${lastSequence}@${nowSeconds}` },
  };
}

/** Writes the counters of the media log from batches of the deltas' stream, exactly once per record. */
export class CountFold {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly countsTableName: string,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
    /** Counter writes in flight at once: each item of a batch is written once, items are independent. */
    private readonly writesInFlight: number = COUNTER_WRITES_IN_FLIGHT,
    /** How long the log is kept: each counter item is written with its bucket's expiry, which DynamoDB's TTL acts on. */
    private readonly retention: Retention = Retention.forever,
  ) {}

  /**
   * Fold the counter changes of one batch of shard `shardId` into the counters: each counter's parts
   * in stream order (delta-items.ts reads them from the deltas' stream; counter-deltas.ts makes them
   * from entry changes).
   */
  public async apply(shardId: string, changes: ReadonlyMap<string, CounterChanges>): Promise<FoldOutcome> {
    const counters = [...changes.values()];
    const outcomes = await mapConcurrently(counters, this.writesInFlight, (counter) => this.foldInto(counter, shardId));
    const written = outcomes.filter((outcome) => outcome === 'written').length;
    return { counters: counters.length, written, alreadyFolded: counters.length - written };
  }

  private async foldInto(counter: CounterChanges, shardId: string): Promise<'written' | 'already-folded'> {
    let outcome: 'written' | 'already-folded' = 'already-folded';
    for (const parts of writeRuns(counter.parts)) {
      if ((await this.foldRun({ key: counter.key, parts }, shardId)) === 'written') outcome = 'written';
    }
    return outcome;
  }

  /** Write one run of a counter's parts (see {@link writeRuns}), exactly once. */
  private async foldRun(counter: CounterChanges, shardId: string): Promise<'written' | 'already-folded'> {
    let parts = counter.parts;
    let seen: string | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const counts = summed(parts);
      const last = parts[parts.length - 1];
      if (last === undefined) return 'already-folded';
      // Changes that cancel out within the batch are still written, as a mark of the watermark alone:
      // a delivery that begins at or before the item's watermark and ends after it (two folds at
      // different positions of the stream, as a command's fold beside `npm start`'s) must add what
      // comes after the watermark, which need not cancel out. The write is refused if so, and the
      // parts after the stored watermark are written instead.
      const write = counterWrite(counter.key, counts, shardId, last.sequence, this.nowSeconds());
      try {
        const { Attributes } = await this.client.send(this.update(write, (parts[0] as typeof last).sequence, seen));
        await this.dropExpiredWatermarks(counter.key, Attributes ?? {});
        return 'written';
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        const stored = textOf(error.Item?.[write.watermark.attribute]);
        if (stored === undefined) throw new MediaLogError(`A counter write was refused without a watermark to explain it (${counter.key.pk} ${counter.key.sk}).`, { cause: error });
        const folded = sequenceKeyOf(stored);
        parts = parts.filter((part) => part.sequence > folded);
        seen = stored;
        if (parts.length === 0) return 'already-folded';
        if (attempt >= MAX_ATTEMPTS) throw new ContendedWriteError(`Counter ${counter.key.pk} ${counter.key.sk} was folded by other deliveries ${attempt} times in a row.`, error);
      }
    }
  }

  private update(write: CounterWrite, first: string, seen: string | undefined): UpdateCommand {
    const names: Record<string, string> = { '#w': write.watermark.attribute };
    const values: Record<string, unknown> = { ':mark': write.watermark.value };
    const additions = [...write.add].map(([name, value], index) => {
      names[`#a${index}`] = name;
      values[`:v${index}`] = value;
      return `#a${index} :v${index}`;
    });
    if (seen === undefined) values[':first'] = first;
    else values[':seen'] = seen;
    const expiry = this.retention.counterExpirySet(write.key.sk);
    if (expiry) {
      Object.assign(names, expiry.names);
      Object.assign(values, expiry.values);
    }
    return new UpdateCommand({
      TableName: this.countsTableName,
      Key: { ...write.key },
      UpdateExpression: `ADD ${additions.join(', ')} SET ${['#w = :mark', ...(expiry ? [expiry.clause] : [])].join(', ')}`,
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
    const expired = expiredWatermarks(item, this.nowSeconds());
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
