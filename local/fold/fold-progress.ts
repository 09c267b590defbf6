import { type DynamoDBStreamsClient, GetRecordsCommand, type Shard } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../functions/shared/async/map-concurrently';
import { readEntryChanges, sequenceKey } from '../../functions/media-log/fold/stream-changes';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { firstStageWatermarks, unappliedDeltas } from './fold-marks';
import { lambdaRecord, passesFilter } from './stream-batches';
import { shardIteratorAfter, StreamShards } from './stream-shards';

/**
 * How far the fold's two stages are (DESIGN.md 7b, round five), measured from what they leave
 * behind rather than guessed from a sleep: `media-log recount` settles on it, and `media-log
 * migrate` waits on it, against the deployed tables as against the local ones.
 *
 * A change written before a mark is counted once both hold:
 * 1. **The first stage has folded it**: on every shard of the media log's stream, no record after
 *    the shard's watermark item (`FOLDED#<shard>`, the sequence of the last change the stage wrote
 *    into deltas) is a change the stage would fold that was made at or before the mark. The records
 *    after the watermark are read from the stream itself, through the stage's own filter and reader
 *    (stream-batches.ts, stream-changes.ts): a record the stage leaves out (another kind of item, a
 *    TTL removal, one it cannot read and reports) holds nothing up. Records older than the
 *    mapping's maximum record age are left out too: Lambda never delivers them, and the recount is
 *    what repairs them.
 * 2. **The second stage has applied the deltas written until then**: it deletes each delta once its
 *    counters are written (applied-deltas.ts), so no well-formed delta item written at or before the
 *    moment the first stage was seen caught up is left in the deltas table (a small table).
 *
 * A record's creation time is rounded down: to the second in AWS, to the minute by DynamoDB Local.
 * A record stamped at or before the mark is waited for, so a coarse stamp only makes a wait
 * longer (locally, beside a running feed, until the minute turns), never short.
 *
 * The watermark items are keyed by the shard id the first stage's events name (the tumbling
 * window's `shardId`), which is the stream's own `ShardId` as DescribeStream lists it.
 *
 * A look reads each shard a few pages at most, and remembers how far it verified, so a long
 * backlog costs several looks, not one long one. A shard without a watermark is read from its
 * oldest record, unless it is closed: its watermark then expired (it is kept an hour after its last
 * write), so every record of it is past the maximum record age.
 */

/** What one look found. */
export interface FoldProgressReport {
  /** Shards of the media log's stream whose changes up to the mark are all in deltas, and all the shards. */
  readonly shards: { readonly caughtUp: number; readonly total: number };
  /** Changes up to the mark the first stage has yet to fold (at least: a look reads a few pages of a shard). */
  readonly unfolded: number;
  /** Deltas written up to the first stage's catch-up that the second stage has yet to apply (0 until the first stage caught up). */
  readonly unapplied: number;
  /** Every change up to the mark is counted. */
  readonly settled: boolean;
}

/** The fold did not count every change up to the mark in the time given. */
export class FoldBehindError extends Error {
  public constructor(
    message: string,
    public readonly report: FoldProgressReport,
  ) {
    super(message);
    this.name = 'FoldBehindError';
  }
}

/** The tables whose streams and items a look reads. */
export interface FoldProgressTables {
  /** The media log's entries table (its stream is the first stage's input). */
  readonly entries: string;
  /** The deltas table (the first stage's watermarks, and the deltas the second stage has yet to apply). */
  readonly deltas: string;
}

/** How a wait on the fold goes. */
export interface FoldWaitOptions {
  /** The longest wait; a {@link FoldBehindError} then. */
  readonly timeoutMs: number;
  /** Between two looks. */
  readonly intervalMs?: number;
  /** Hears each look's report. */
  readonly onLook?: (report: FoldProgressReport) => void;
  /** Runs between two looks (locally: a drain of the fold, where nothing else may run it). */
  readonly between?: () => Promise<unknown>;
}

/** Pages of one shard a look reads at most (GetRecords returns up to 1,000 records a page). */
const PAGES_PER_LOOK = 10;
/** Shards read at once. */
const SHARDS_IN_FLIGHT = 8;
/** Consecutive empty pages taken as an open shard's end: DynamoDB Streams may answer empty pages over a stretch with no records (GetRecords, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_GetRecords.html). */
const EMPTY_PAGES_AT_END = 3;
/** Between two looks of a wait. */
const LOOK_EVERY_MS = 1_000;
/**
 * Added to the mark: a record's creation time is stamped by DynamoDB's clock, in whole seconds, and
 * the mark by this machine's. Waiting for a few seconds' more changes costs a few seconds; missing
 * one made just before the mark would let a recount correct a counter the fold then adds to.
 */
export const CLOCK_MARGIN_MS = 5_000;

/** Where one shard was verified to: every record up to `after` needs no more folding. */
interface ShardState {
  after: string | undefined;
  done: boolean;
}

/** Measures the fold's progress against a mark; one instance per wait (it remembers how far each shard was verified). */
export class FoldProgress {
  private readonly shards: StreamShards;
  private readonly verified = new Map<string, ShardState>();
  /** When a look first found every shard caught up: the deltas written until then are the second stage's share. */
  private firstStageDoneAt: number | undefined;

  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly streams: DynamoDBStreamsClient,
    private readonly tables: FoldProgressTables,
    private readonly now: () => number = Date.now,
  ) {
    this.shards = new StreamShards(streams, tables.entries);
  }

  /** Wait until every change made up to `markMs` is counted, looking every second; a {@link FoldBehindError} past the timeout. */
  public async waitFor(markMs: number, options: FoldWaitOptions): Promise<FoldProgressReport> {
    const deadline = this.now() + options.timeoutMs;
    for (;;) {
      const report = await this.look(markMs);
      options.onLook?.(report);
      if (report.settled) return report;
      if (this.now() >= deadline) {
        throw new FoldBehindError(
          `the fold has not counted every change up to ${new Date(markMs).toISOString()} in ${Math.round(options.timeoutMs / 1000)} s: ` +
            `first stage, ${report.shards.total - report.shards.caughtUp} of ${report.shards.total} stream shard(s) behind (${report.unfolded} change(s) at least); ` +
            `second stage, ${report.unapplied} delta(s) to apply`,
          report,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? LOOK_EVERY_MS));
      await options.between?.();
    }
  }

  /** One look at both stages against the mark. */
  public async look(markMs: number): Promise<FoldProgressReport> {
    const { streamArn, shards } = await this.shards.current(true);
    const marks = await firstStageWatermarks(this.client, this.tables.deltas, shards.map((shard) => shard.ShardId as string));
    const unfolded = await mapConcurrently(shards, SHARDS_IN_FLIGHT, (shard) => this.unfoldedOf(streamArn, shard, marks.get(shard.ShardId as string), markMs));
    const behind = unfolded.filter((count) => count > 0).length;
    const firstStage = { caughtUp: shards.length - behind, total: shards.length };
    if (behind > 0) return { shards: firstStage, unfolded: unfolded.reduce((sum, count) => sum + count, 0), unapplied: 0, settled: false };
    this.firstStageDoneAt ??= this.now();
    const unapplied = await unappliedDeltas(this.client, this.tables.deltas, this.firstStageDoneAt);
    return { shards: firstStage, unfolded: 0, unapplied, settled: unapplied === 0 };
  }

  /**
   * How many changes of one shard, made at or before the mark and young enough to be delivered,
   * lie after its watermark (0: the shard is caught up). Reads on from where the last look verified.
   */
  private async unfoldedOf(streamArn: string, shard: Shard, watermark: string | undefined, markMs: number): Promise<number> {
    const shardId = shard.ShardId as string;
    const state = this.verified.get(shardId) ?? { after: undefined, done: false };
    this.verified.set(shardId, state);
    if (state.done) return 0;
    const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
    if (watermark === undefined && state.after === undefined && closed) {
      state.done = true;
      return 0;
    }
    const from = later(watermark, state.after);
    const oldest = this.now() - foldMediaLogCountsFunction.maximumRecordAgeSeconds * 1000;
    const cutoff = markMs + CLOCK_MARGIN_MS;
    // A position past the stream's 24 hours is long past the maximum record age: read from the oldest kept.
    let iterator = await shardIteratorAfter(this.streams, streamArn, shardId, from);
    let empty = 0;
    for (let page = 0; iterator !== undefined && page < PAGES_PER_LOOK; page += 1) {
      const output = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      const records = output.Records ?? [];
      let pending = 0;
      for (const record of records) {
        const created = record.dynamodb?.ApproximateCreationDateTime?.getTime() ?? 0;
        // A shard's records come in the order they were made: the rest are after the mark too.
        if (created > cutoff) break;
        const needed = passesFilter(record, foldMediaLogCountsFunction) && created >= oldest && readEntryChanges([lambdaRecord(record, streamArn)]).changes.length > 0;
        if (needed) pending += 1;
        // Verified so far: up to the first change the stage has yet to fold.
        else if (pending === 0) state.after = record.dynamodb?.SequenceNumber ?? state.after;
      }
      if (pending > 0) return pending;
      if (records.some((record) => (record.dynamodb?.ApproximateCreationDateTime?.getTime() ?? 0) > cutoff)) {
        state.done = true;
        return 0;
      }
      empty = records.length === 0 ? empty + 1 : 0;
      iterator = output.NextShardIterator;
      if (iterator === undefined || empty >= EMPTY_PAGES_AT_END) {
        // A closed shard read to its end is done for good; an open one only until more is written, which is after the mark.
        state.done = true;
        return 0;
      }
    }
    // Pages left to verify: behind, by how much the next look tells.
    return 1;
  }
}

/** The later of two raw sequence numbers. */
function later(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return sequenceKey(a) >= sequenceKey(b) ? a : b;
}
