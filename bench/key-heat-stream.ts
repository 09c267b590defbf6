import { sequenceKey, type EntryChange } from '../functions/media-log/fold/stream-changes';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { foldMediaLogCountsFunction } from '../functions/media-log/fold/stream-functions';
import { shardOf } from '../functions/media-log/model/shards';
import { batchLength, MAX_BATCH_PAYLOAD_BYTES } from '../local/fold/stream-batches';
import type { ItemSize } from './key-heat-writes';

/**
 * The media log table's stream as AWS runs it, for the `key-heat` bench: one shard per table
 * partition (a partition takes about 1,000 writes/s), each record in the shard of its item's
 * partition key (by a hash of the key), shards closed and replaced by new ones periodically, and
 * each shard's records cut into the batches of the fold's event source mapping.
 *
 * - Rollover: DynamoDB closes a stream shard after a period it does not document (about four
 *   hours is what is observed) and opens its child for the same partition, with a new shard id.
 *   The fold keeps a watermark per shard id, so each rollover gives every counter item new
 *   watermarks while the old ones wait out their retention. Modelled as every 4 hours for all
 *   shards at once, the worst case for the watermarks an item carries.
 * - Batches: the mapping ends a batch at `batchSize` records, when its batching window ends
 *   (`maxBatchingWindowSeconds` after its first record), or when one more record would take its
 *   payload over 6 MB, whichever comes first (the rule of local/fold/stream-poller.ts's
 *   `batchLength`); a closing shard delivers what it holds. A batch is folded at the instant it
 *   is cut: the fold's own run time (about a second) is left out. Shards cut their batches at
 *   moments of their own (they opened at different times, and each shard's invocations take their
 *   own time), so a stretch of the simulation, and a new shard after a rollover, begins with the
 *   shard's first batch already part full, by a random share: had every batch begun empty at one
 *   instant, all would be cut in the same second and write every shared counter item in it.
 */

/** Writes per second one table partition, and so one stream shard, takes. */
const WRITES_PER_STREAM_SHARD = 1000;

/** How the stream is cut into shards and batches. */
export interface StreamOptions {
  readonly shards: number;
  readonly batchSize: number;
  readonly batchingWindowMs: number;
  /** Every shard is closed and replaced by a new one every `rolloverMs`, at `rolloverOffsetMs` past midnight UTC and every period after. */
  readonly rolloverMs: number;
  readonly rolloverOffsetMs: number;
}

/** Stream shards for a rate of table writes: one per table partition. */
export function streamShards(tableWritesPerSecond: number): number {
  return Math.max(1, Math.ceil(tableWritesPerSecond / WRITES_PER_STREAM_SHARD));
}

const HOUR_MS = 3_600_000;

/** The stream of a table taking `tableWritesPerSecond`, batched as the fold's event source mapping is; shards roll over every 4 hours from 02:00 UTC. */
export function streamOptions(tableWritesPerSecond: number): StreamOptions {
  return {
    shards: streamShards(tableWritesPerSecond),
    batchSize: foldMediaLogCountsFunction.batchSize,
    batchingWindowMs: foldMediaLogCountsFunction.maxBatchingWindowSeconds * 1000,
    rolloverMs: 4 * HOUR_MS,
    // Off the turn of the day, so that the day's turn and a rollover are seen apart.
    rolloverOffsetMs: 2 * HOUR_MS,
  };
}

/** The generation of shards open at `ms` (they all roll over together). */
export function generationAt(options: StreamOptions, ms: number): number {
  return Math.floor((ms - options.rolloverOffsetMs) / options.rolloverMs);
}

/** When the shards of `generation` open (epoch ms). */
export function generationStart(options: StreamOptions, generation: number): number {
  return generation * options.rolloverMs + options.rolloverOffsetMs;
}

/** The id of shard `index` of `generation`, shaped as DynamoDB's (`shardId-<digits>-<hex>`). */
export function shardIdOf(generation: number, index: number): string {
  return `shardId-${String(generation).padStart(20, '0')}-${index.toString(16).padStart(8, '0')}`;
}

/** A stream sequence number as DynamoDB writes them (28 digits, growing within a shard). Only its length and its order within a shard matter to the bench. */
export function sequenceNumberOf(generation: number, index: number, position: number): string {
  return `4${String(generation % 1_000_000).padStart(6, '0')}${String(index).padStart(3, '0')}${String(position).padStart(18, '0')}`;
}

/** {@link sequenceNumberOf} as the fold's sequence key. */
export function sequenceOf(generation: number, index: number, position: number): string {
  return sequenceKey(sequenceNumberOf(generation, index, position));
}

/**
 * Lambda's envelope around one DynamoDB stream record (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html):
 * the record as the fold receives it, with its images left out. An entry key is `E#` and a uuid.
 */
const RECORD_ENVELOPE = {
  eventID: '7de3041dd709b024af6f29e4fa13d34c',
  eventName: 'MODIFY',
  eventVersion: '1.1',
  eventSource: 'aws:dynamodb',
  awsRegion: 'eu-central-1',
  dynamodb: {
    ApproximateCreationDateTime: 1_773_144_000,
    Keys: { pk: { S: `E#${'0'.repeat(36)}` } },
    SequenceNumber: '4'.repeat(28),
    SizeBytes: 1024,
    StreamViewType: 'NEW_AND_OLD_IMAGES',
  },
  eventSourceARN: 'arn:aws:dynamodb:eu-central-1:123456789012:table/FrontendApi-MediaLogV2A1B2C3D4-1Q2W3E4R5T6Y/stream/2026-03-01T00:00:00.000',
};
const ENVELOPE_BYTES = JSON.stringify(RECORD_ENVELOPE).length;
/** What DynamoDB JSON adds per attribute of an image: `"name":{"S":"value"},` less the name and value. */
const JSON_BYTES_PER_ATTRIBUTE = 12;
/** `,"NewImage":{}` and the last attribute's comma taken back. */
const JSON_BYTES_PER_IMAGE = 13;

function imageBytes(size: ItemSize): number {
  return JSON_BYTES_PER_IMAGE + size.bytes + JSON_BYTES_PER_ATTRIBUTE * size.attributes;
}

/** Bytes of one record in the event Lambda delivers: the envelope and each image in DynamoDB JSON (the item's names and values plus the type wrapping). */
export function recordPayloadBytes(oldImage: ItemSize | undefined, newImage: ItemSize): number {
  return ENVELOPE_BYTES + (oldImage === undefined ? 0 : imageBytes(oldImage)) + imageBytes(newImage);
}

/** One batch as a consumer receives it: its shard, its records (entry changes for the media log's) in stream order, and when it was cut. */
export interface StreamBatch<T = EntryChange> {
  readonly shardId: string;
  readonly records: readonly T[];
  readonly atMs: number;
}

/** The records a shard holds that no batch has taken yet. */
interface OpenBatch<T> {
  generation: number;
  startMs: number;
  records: T[];
  bytes: number[];
  totalBytes: number;
}

/**
 * The shards of a stream, their sequence numbers, and the batches cut from them: each record goes
 * to its partition's shard, and each cut batch is handed to `deliver` at once.
 */
export class ShardedStream<T> {
  private readonly open: (OpenBatch<T> | undefined)[];
  private readonly positions = new Map<string, number>();
  /** The generation of each shard's last batch in this stretch: a batch of another generation is the shard's first. */
  private readonly generations: (number | undefined)[];
  /** Batches cut so far, and the records they held. */
  public batches = 0;
  public records = 0;

  public constructor(
    public readonly options: StreamOptions,
    private readonly deliver: (batch: StreamBatch<T>) => void,
    private readonly random: () => number = Math.random,
  ) {
    this.open = Array.from({ length: options.shards }, () => undefined);
    this.generations = this.open.map(() => undefined);
  }

  /** A record of the item of `partitionKey` at `ms`, of `bytes` of payload, made by `make` from its sequence number. */
  public push(partitionKey: string, ms: number, bytes: number, make: (sequenceNumber: string) => T): void {
    // DynamoDB's own hash of the partition key is internal: any even hash spreads keys alike.
    const index = shardOf(partitionKey, this.options.shards);
    const generation = generationAt(this.options, ms);
    this.closeDue(index, ms);
    const id = `${generation}:${index}`;
    const position = (this.positions.get(id) ?? 0) + 1;
    this.positions.set(id, position);
    let batch = this.open[index];
    if (batch === undefined) {
      // A shard's first batch is part full already: what it took before, counted in bytes and time only.
      const head = this.generations[index] === generation ? 0 : this.random();
      this.generations[index] = generation;
      this.open[index] = batch = { generation, startMs: ms - head * this.options.batchingWindowMs, records: [], bytes: [], totalBytes: head * MAX_BATCH_PAYLOAD_BYTES };
    }
    batch.records.push(make(sequenceNumberOf(generation, index, position)));
    batch.bytes.push(bytes);
    batch.totalBytes += bytes;
    if (batch.records.length >= this.options.batchSize || batch.totalBytes > MAX_BATCH_PAYLOAD_BYTES) this.cut(index, batchLength(batch.bytes, this.options.batchSize), ms);
  }

  /** Cut every batch whose window has ended, or whose shard has closed, by `ms`. */
  public advanceTo(ms: number): void {
    for (let index = 0; index < this.open.length; index += 1) this.closeDue(index, ms);
  }

  /** Drop the records no batch has taken yet (the end of a simulated stretch): the next stretch begins with every shard at a phase of its own. */
  public discardOpen(): void {
    this.open.fill(undefined);
    this.generations.fill(undefined);
  }

  private closeDue(index: number, ms: number): void {
    const batch = this.open[index];
    if (batch === undefined) return;
    const closed = generationStart(this.options, batch.generation + 1);
    const windowEnd = batch.startMs + this.options.batchingWindowMs;
    if (ms >= closed || ms >= windowEnd) this.cut(index, batch.records.length, Math.min(closed, windowEnd));
  }

  /** Hand the first `length` records of shard `index`'s open batch to the fold; the rest opens the next batch at `ms`. */
  private cut(index: number, length: number, ms: number): void {
    const batch = this.open[index] as OpenBatch<T>;
    const records = batch.records.splice(0, length);
    batch.bytes.splice(0, length);
    batch.totalBytes = batch.bytes.reduce((sum, bytes) => sum + bytes, 0);
    batch.startMs = ms;
    if (batch.records.length === 0) this.open[index] = undefined;
    this.batches += 1;
    this.records += records.length;
    this.deliver({ shardId: shardIdOf(batch.generation, index), records, atMs: ms });
  }
}

/** The media log's stream: its records are changes of entries. */
export class StreamShards extends ShardedStream<EntryChange> {
  /** A change of the entry item of `partitionKey` at `ms` (the entry before, absent for a new one, and after), of `bytes` of payload. */
  public record(partitionKey: string, ms: number, bytes: number, before: MediaLogEntry | undefined, after: MediaLogEntry): void {
    this.push(partitionKey, ms, bytes, (number) => {
      const sequence = sequenceKey(number);
      return before === undefined ? { sequence, after } : { sequence, before, after };
    });
  }
}
