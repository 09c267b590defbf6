import {
  type DynamoDBStreamsClient,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  ResourceNotFoundException,
  TrimmedDataAccessException,
  type _Record as ApiRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamConsumerDefinition } from '../../functions/shared/deployment/function-definitions';
import { sequenceKey } from '../../functions/media-log/fold/stream-changes';
import type { CheckpointStore } from './checkpoints';
import { batchLength, lambdaRecord, passesFilter, type BatchRunner, type StreamBatchEvent } from './stream-batches';
import { shardIteratorAfter, StreamShards } from './stream-shards';

/**
 * Reading a table's stream on DynamoDB Local the way a Lambda event source mapping reads a
 * DynamoDB stream (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html): each shard in order,
 * from the last checkpoint on, in batches of the consumer's batch size, only the records its
 * filter lets through, each batch handed to the consumer with the shard named (the tumbling-window
 * event shape), the checkpoint moved only once the consumer returned. A consumer that throws gets
 * the same batch again, halved as `BisectBatchOnFunctionError` would, until it succeeds.
 *
 * A poll makes only the calls a poll needs: one GetRecords per shard, from the iterator the last
 * poll ended with; the stream and its shards are looked up as seldom as StreamShards
 * (stream-shards.ts) can. It reads on while pages come back full (a backlog, gathered into batches
 * of the batch size) and hands over what it read once a page shows the shard's current end, as
 * Lambda invokes a function as soon as records are available when no batching window holds them.
 */

/** What one pass over the stream did. */
export interface DrainResult {
  /** Records read from the stream (those the filter dropped included). */
  readonly read: number;
  /** Records handed to the consumer. */
  readonly delivered: number;
  readonly batches: number;
}

/** Most records one GetRecords returns (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html). */
const GET_RECORDS_LIMIT = 1000;
/** Most data one GetRecords returns in AWS, 1 MB (same page); DynamoDB Local has no such cap (a page of 40 records of 100 KB measured). */
const GET_RECORDS_BYTES = 1_048_576;

/**
 * Whether a page of records (their sizes as delivered) ended short of both of GetRecords' limits, so
 * it held every record the shard had when it was read. Sizes as delivered exceed the stream's own,
 * so a page near the byte limit counts as full: the next page is read before the batch is cut.
 */
function isShortPage(recordBytes: readonly number[]): boolean {
  return recordBytes.length < GET_RECORDS_LIMIT && recordBytes.reduce((sum, bytes) => sum + bytes, 0) < GET_RECORDS_BYTES;
}

/** Failed deliveries of one batch before a pass gives up (the next pass starts again from the checkpoint). */
const MAX_FAILED_DELIVERIES = 8;

/** Polls the stream of one table on a local endpoint for one stream consumer. */
export class StreamPoller {
  private readonly shards: StreamShards;
  /** Where each shard's last poll stopped: the iterator GetRecords handed back at the shard's end, and the last record read before it. */
  private readonly iterators = new Map<string, { readonly iterator: string; readonly after: string | undefined }>();

  public constructor(
    private readonly streams: DynamoDBStreamsClient,
    tableName: string,
    private readonly consumer: Pick<StreamConsumerDefinition, 'batchSize' | 'keyPrefixes' | 'eventNames'>,
    private readonly checkpoints: CheckpointStore,
    private readonly run: BatchRunner,
  ) {
    this.shards = new StreamShards(streams, tableName);
  }

  /**
   * Every record the stream holds now that the consumer's filter lets through, by shard, shaped as
   * Lambda delivers them; nothing is delivered and no checkpoint moves (for `invoke --generate-event`).
   */
  public async heldRecords(): Promise<{ streamArn: string; shardId: string; records: DynamoDBRecord[] }[]> {
    const { streamArn, shards } = await this.shards.current();
    const held: { streamArn: string; shardId: string; records: DynamoDBRecord[] }[] = [];
    for (const shard of shards) {
      const shardId = shard.ShardId as string;
      const records: DynamoDBRecord[] = [];
      let iterator = (await this.streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shardId, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
      while (iterator !== undefined) {
        const output = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: GET_RECORDS_LIMIT }));
        const page = output.Records ?? [];
        records.push(...page.filter((record) => passesFilter(record, this.consumer)).map((record) => lambdaRecord(record, streamArn)));
        if (page.length === 0) break;
        iterator = output.NextShardIterator;
      }
      held.push({ streamArn, shardId, records });
    }
    return held;
  }

  /** Read every shard from where the last poll stopped to its current end, delivering batch by batch. */
  public async drain(): Promise<DrainResult> {
    try {
      return await this.drainShards();
    } catch (error) {
      // The table was made anew (a new stream), or a shard is gone: find the stream again, once.
      if (!(error instanceof ResourceNotFoundException)) throw error;
      this.shards.forget();
      this.iterators.clear();
      return this.drainShards();
    }
  }

  private async drainShards(): Promise<DrainResult> {
    let { streamArn, shards } = await this.shards.current();
    let total: DrainResult = { read: 0, delivered: 0, batches: 0 };
    const done = new Set<string>();
    for (let pass = 0; pass < 2; pass += 1) {
      let ended = false;
      for (const shard of shards) {
        const shardId = shard.ShardId as string;
        if (done.has(shardId)) continue;
        const result = await this.drainShard(streamArn, shardId);
        done.add(shardId);
        ended ||= result.ended;
        total = { read: total.read + result.read, delivered: total.delivered + result.delivered, batches: total.batches + result.batches };
      }
      // A shard that ended has children to read: list the shards again, once.
      if (!ended) break;
      ({ streamArn, shards } = await this.shards.current(true));
    }
    return total;
  }

  /** An iterator from the shard's checkpoint on (or its oldest record kept: a checkpoint past the stream's 24 hours included). */
  private async iterator(streamArn: string, shardId: string): Promise<string | undefined> {
    return shardIteratorAfter(this.streams, streamArn, shardId, await this.checkpoints.get(streamArn, shardId));
  }

  /**
   * Where a shard's poll starts: where the last one stopped, unless another process sharing the
   * checkpoints (a CLI command beside `npm start`) has delivered further since.
   */
  private async startOf(streamArn: string, shardId: string): Promise<{ iterator: string | undefined; after: string | undefined }> {
    const saved = this.iterators.get(shardId);
    this.iterators.delete(shardId);
    const checkpoint = await this.checkpoints.get(streamArn, shardId);
    const behind = checkpoint !== undefined && (saved?.after === undefined || sequenceKey(checkpoint) > sequenceKey(saved.after));
    if (saved !== undefined && !behind) return saved;
    return { iterator: await this.iterator(streamArn, shardId), after: checkpoint };
  }

  private async drainShard(streamArn: string, shardId: string): Promise<DrainResult & { readonly ended: boolean }> {
    let { iterator, after } = await this.startOf(streamArn, shardId);
    let result: DrainResult = { read: 0, delivered: 0, batches: 0 };
    let pending: { readonly record: ApiRecord; readonly bytes: number }[] = [];
    let renewed = false;
    while (iterator !== undefined) {
      let output;
      try {
        output = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: GET_RECORDS_LIMIT }));
      } catch (error) {
        // An iterator that expired, or that DynamoDB Local says points past the oldest record (it
        // does so on a shard of a table just made): a new one from the checkpoint, once a pass.
        if (!(error instanceof ExpiredIteratorException || error instanceof TrimmedDataAccessException) || renewed) throw error;
        renewed = true;
        iterator = await this.iterator(streamArn, shardId);
        continue;
      }
      const records = output.Records ?? [];
      after = records.at(-1)?.dynamodb?.SequenceNumber ?? after;
      const page = records.map((record) => ({ record, bytes: Buffer.byteLength(JSON.stringify(lambdaRecord(record, streamArn))) }));
      pending.push(...page);
      result = { ...result, read: result.read + records.length };
      // A closed shard ends its iterator. An open one is at its current end when a page holds less
      // than GetRecords may return; waiting for an empty page instead would never end a pass while
      // the table keeps writing, and the records read would wait for a full batch (10,000) meanwhile.
      const atEnd = output.NextShardIterator === undefined || isShortPage(page.map(({ bytes }) => bytes));
      for (let size = batchLength(pending.map(({ bytes }) => bytes), this.consumer.batchSize); size < pending.length || (atEnd && pending.length > 0); size = batchLength(pending.map(({ bytes }) => bytes), this.consumer.batchSize)) {
        const batch = pending.slice(0, size).map(({ record }) => record);
        pending = pending.slice(size);
        const delivered = await this.deliver(streamArn, shardId, batch);
        result = { ...result, delivered: result.delivered + delivered.records, batches: result.batches + delivered.batches };
      }
      if (atEnd) {
        // An open shard's iterator at its end is where the next poll goes on; a closed shard has none.
        if (output.NextShardIterator !== undefined && pending.length === 0) this.iterators.set(shardId, { iterator: output.NextShardIterator, after });
        return { ...result, ended: output.NextShardIterator === undefined };
      }
      iterator = output.NextShardIterator;
    }
    return { ...result, ended: true };
  }

  /** Hand one batch to the consumer (bisecting it while it fails), then move the checkpoint past it. */
  private async deliver(streamArn: string, shardId: string, batch: readonly ApiRecord[]): Promise<{ records: number; batches: number }> {
    const last = batch[batch.length - 1]?.dynamodb?.SequenceNumber;
    const passing = batch.filter((record) => passesFilter(record, this.consumer));
    let batches = 0;
    if (passing.length > 0) batches = await this.runBisecting(streamArn, shardId, passing, 0);
    if (last !== undefined) await this.checkpoints.set(streamArn, shardId, last);
    return { records: passing.length, batches };
  }

  private async runBisecting(streamArn: string, shardId: string, records: readonly ApiRecord[], failures: number): Promise<number> {
    const now = new Date().toISOString();
    const event: StreamBatchEvent = {
      Records: records.map((record) => lambdaRecord(record, streamArn)),
      shardId,
      eventSourceARN: streamArn,
      window: { start: now, end: now },
      state: {},
      isFinalInvokeForWindow: false,
      isWindowTerminatedEarly: false,
    };
    try {
      await this.run(event);
      return 1;
    } catch (error) {
      if (failures + 1 >= MAX_FAILED_DELIVERIES) throw error;
      if (records.length === 1) return this.runBisecting(streamArn, shardId, records, failures + 1);
      const half = Math.ceil(records.length / 2);
      const first = await this.runBisecting(streamArn, shardId, records.slice(0, half), failures + 1);
      return first + (await this.runBisecting(streamArn, shardId, records.slice(half), failures + 1));
    }
  }
}
