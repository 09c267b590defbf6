import { marshall } from '@aws-sdk/util-dynamodb';
import { deltaBytes, deltaKeys, deltaWrites, readDeltaRecords, DELTA_ATTRIBUTES, type StoredDelta } from '../functions/media-log/fold/delta-items';
import { applyMediaLogDeltasFunction } from '../functions/media-log/fold/stream-functions';
import type { StreamRecord } from '../functions/media-log/fold/stream-changes';
import { counterKeyId } from '../functions/media-log/model/counters';
import { MEDIA_LOG_ATTRIBUTES, mediaLogDeltasTable } from '../functions/shared/tables/media-log-table';
import type { CounterTable } from './key-heat-counters';
import { ShardedStream, type StreamBatch, type StreamOptions } from './key-heat-stream';
import { attributeSize, numberSize, TableWriter, type WriteTally } from './key-heat-writes';

/**
 * The fold's two stages as the `key-heat` bench plays them (DESIGN.md 7b, round five), on the
 * product's plans: each batch of a media-log stream shard becomes the transactions that the
 * product's `deltaWrites` makes (delta items and the shard's watermark, each write counted twice,
 * as a transaction's writes are billed); each delta item enters the deltas table's stream, whose
 * shards the second stage reads in batches of its own mapping; each of those batches is read by the
 * product's `readDeltaRecords`, written to the counters once per counter item (key-heat-counters.ts)
 * and its delta items deleted, each delete billed by the size of the item it removes.
 */

/** A transaction's writes cost twice a plain write's units. */
const IN_TRANSACTION = 2;

/** An expiry, as the first stage writes it on every item. */
const EXPIRY_BYTES = attributeSize(MEDIA_LOG_ATTRIBUTES.expiresAt, 1_800_000_000);

/** A watermark item: its key, its watermark (a sequence key of 30 digits, `@` and 10) and its expiry. */
function markBytes(shardId: string): number {
  const key = deltaKeys.mark(shardId);
  return attributeSize('pk', key.pk) + attributeSize('sk', key.sk) + attributeSize(DELTA_ATTRIBUTES.watermark, `${'0'.repeat(30)}@${'0'.repeat(10)}`) + EXPIRY_BYTES;
}

/** A delta item's size: its key, its expiry and its deltas (the product's upper bound, {@link deltaBytes}). */
function deltaItemBytes(key: { readonly pk: string; readonly sk: string }, deltas: readonly StoredDelta[]): number {
  return attributeSize('pk', key.pk) + attributeSize('sk', key.sk) + EXPIRY_BYTES + deltas.reduce((bytes, delta) => bytes + deltaBytes(delta), numberSize(0));
}

/** A stream record's envelope around a delta item's new image (as for an entry's: key-heat-stream.ts). */
const RECORD_ENVELOPE_BYTES = 600;

/** The deltas table's stream as the second stage's mapping batches it, with the deltas table's shard count given. */
export function deltaStreamOptions(mediaLogStream: StreamOptions, shards: number): StreamOptions {
  return { ...mediaLogStream, shards, batchSize: applyMediaLogDeltasFunction.batchSize, batchingWindowMs: applyMediaLogDeltasFunction.maxBatchingWindowSeconds * 1000 };
}

/** Both stages: the deltas table's writes and stream between the media log's stream and the counters. */
export class DeltaStages {
  private readonly table: TableWriter;
  /** The deltas table's stream, read by the second stage. */
  public readonly stream: ShardedStream<StreamRecord>;
  /** The size of each delta item not yet deleted, by its key. */
  private readonly sizes = new Map<string, number>();
  /** First-stage transactions written. */
  public transactions = 0;

  public constructor(
    tally: WriteTally,
    private readonly counters: CounterTable,
    options: StreamOptions,
    random: () => number,
  ) {
    this.table = new TableWriter(tally, mediaLogDeltasTable);
    this.stream = new ShardedStream<StreamRecord>(options, (batch) => this.apply(batch), random);
  }

  /** The first stage on one batch of a media-log stream shard, cut at `batch.atMs`. */
  public readonly fold = (batch: StreamBatch): void => {
    for (const write of deltaWrites(batch.records)) {
      this.transactions += 1;
      write.items.forEach((deltas, part) => {
        const key = deltaKeys.delta(batch.shardId, write.last, part);
        const id = counterKeyId(key);
        const bytes = deltaItemBytes(key, deltas);
        this.table.writeSized(key.pk, id, bytes, IN_TRANSACTION);
        this.sizes.set(id, bytes);
        const image = marshall({ ...key, [DELTA_ATTRIBUTES.deltas]: deltas });
        this.stream.push(key.pk, batch.atMs, RECORD_ENVELOPE_BYTES + bytes, (sequence) => ({ eventName: 'INSERT', dynamodb: { SequenceNumber: sequence, NewImage: image } }));
      });
      const mark = deltaKeys.mark(batch.shardId);
      this.table.writeSized(mark.pk, counterKeyId(mark), markBytes(batch.shardId), IN_TRANSACTION);
    }
  };

  /** The second stage on one batch of the deltas' stream: the counters, then the deletes of the deltas applied. */
  private apply(batch: StreamBatch<StreamRecord>): void {
    const { counters, applied } = readDeltaRecords(batch.records);
    this.counters.applyDeltas(batch.shardId, counters, Math.floor(batch.atMs / 1000));
    for (const key of applied) {
      const id = counterKeyId(key);
      this.table.writeSized(key.pk, id, this.sizes.get(id) ?? 0);
      this.sizes.delete(id);
    }
  }
}
