import { counterWrite, writeRuns, type CounterWrite } from '../functions/media-log/fold/count-fold';
import { expiredWatermarks } from '../functions/media-log/fold/watermarks';
import { counterChanges, summed, type CounterChanges } from '../functions/media-log/fold/counter-deltas';
import type { EntryChange } from '../functions/media-log/fold/stream-changes';
import { parentBucketOf } from '../functions/media-log/model/counters';
import { COUNTER_SCOPES, mediaLogKeys } from '../functions/media-log/model/keys';
import { bucketStart, TIME_LEVELS, type TimeLevel } from '../functions/media-log/model/time-buckets';
import { mediaLogCountsTable } from '../functions/shared/tables/media-log-table';
import { TableWriter, type Item, type ItemSize, type MutableItem, type WriteTally } from './key-heat-writes';

/**
 * The counters table as the fold's second stage writes it, for the `key-heat` bench: a batch's
 * deltas summed per counter item by the product's `summed`, and each counter item it moves written
 * once with what the product's `counterWrite` adds (the counts and one to the version) and sets
 * (the deltas-stream shard's watermark). The items keep what those writes put in them, so each write costs
 * what the item weighs then: its counts, its version and one watermark per shard that wrote it.
 *
 * After a write the fold removes the item's expired watermarks in a second write: the product's
 * `expiredWatermarks` picks them here as it does there.
 */

/** The time level of a counter item, by the length of its bucket (its sort key). */
export function levelOf(bucket: string): TimeLevel {
  const level = (Object.keys(TIME_LEVELS) as TimeLevel[]).find((name) => TIME_LEVELS[name] === bucket.length);
  if (level === undefined) throw new Error(`${bucket} is no time bucket.`);
  return level;
}

/** What a counter item counts, as the report groups them: the whole log's or a user's, and its time level. */
export function counterKind(key: CounterWrite['key']): string {
  const level = levelOf(key.sk);
  const wholeLog = key.pk === mediaLogKeys.counterPartition(COUNTER_SCOPES.all, level, parentBucketOf(COUNTER_SCOPES.all, level, bucketStart(key.sk)));
  // A scope's counter partition names it (model/keys.ts `scopeName`): `…#USER#<id>…` or `…#FAMILY#<id>…`.
  const scope = wholeLog ? 'whole log' : key.pk.includes('#FAMILY#') ? 'a family' : 'a user';
  return `${scope}, ${level}`;
}

/** A counter item: its key, the item, and when each watermark it holds was written (epoch seconds). */
export interface CounterItem {
  readonly id: string;
  readonly key: CounterWrite['key'];
  readonly item: MutableItem;
  readonly watermarks: Map<string, number>;
  /** The instant (epoch seconds) up to which the item holds what the traffic wrote into it. */
  syncedTo: number;
  /** The most watermarks it held after any write. */
  mostWatermarks: number;
}

/** What brings a counter item up to date before the fold writes it (the steady traffic of a skipped stretch of the day). */
export type CatchUp = (counter: CounterItem, table: CounterTable, nowSeconds: number) => void;

/** The counter items the fold has written, and the accounting of every write. */
export class CounterTable {
  public readonly items = new Map<string, CounterItem>();
  private readonly table: TableWriter;

  public constructor(
    private readonly tally: WriteTally,
    private readonly catchUp?: CatchUp,
  ) {
    this.table = new TableWriter(tally, mediaLogCountsTable);
  }

  /** Fold entry changes straight into the counters, as one second-stage batch of shard `shardId` holding their deltas would. */
  public fold(shardId: string, changes: readonly EntryChange[], nowSeconds: number): void {
    this.applyDeltas(shardId, counterChanges(changes), nowSeconds);
  }

  /**
   * The second stage on one batch of shard `shardId` of the deltas' stream, cut at `nowSeconds`:
   * each counter item it moves is written once, or once per run of its parts where they move more
   * attributes than one write may name (the product's `writeRuns`).
   */
  public applyDeltas(shardId: string, changes: ReadonlyMap<string, CounterChanges>, nowSeconds: number): void {
    for (const [id, counter] of changes) {
      for (const run of writeRuns(counter.parts)) {
        const counts = summed(run);
        const last = run[run.length - 1];
        // Changes that cancel out within the run are written too, as a mark (count-fold.ts says why).
        if (last === undefined) continue;
        this.apply(id, counterWrite(counter.key, counts, shardId, last.sequence, nowSeconds), nowSeconds);
      }
    }
  }

  /** The size of a counter item now. */
  public sizeOf(counter: CounterItem): ItemSize {
    return this.table.sizeOf(counter.item);
  }

  /**
   * Change a counter item outside the fold's writes (SET of `set`, REMOVE of `remove`), uncounted:
   * what a skipped stretch of steady traffic leaves in it.
   */
  public restate(counter: CounterItem, set: Item, remove: readonly string[], watermarks: ReadonlyMap<string, number>): void {
    this.tally.uncounted(() => this.table.update(counter.item, set, remove));
    for (const name of remove) counter.watermarks.delete(name);
    for (const [name, at] of watermarks) counter.watermarks.set(name, at);
  }

  private apply(id: string, write: CounterWrite, nowSeconds: number): void {
    let counter = this.items.get(id);
    if (counter === undefined) this.items.set(id, (counter = { id, key: write.key, item: { ...write.key }, watermarks: new Map(), syncedTo: Number.NEGATIVE_INFINITY, mostWatermarks: 0 }));
    this.catchUp?.(counter, this, nowSeconds);
    const set: Record<string, string | number> = { [write.watermark.attribute]: write.watermark.value };
    for (const [name, delta] of write.add) set[name] = ((counter.item[name] as number | undefined) ?? 0) + delta;
    this.table.update(counter.item, set);
    counter.watermarks.set(write.watermark.attribute, nowSeconds);
    counter.mostWatermarks = Math.max(counter.mostWatermarks, counter.watermarks.size);
    const expired = expiredWatermarks(counter.item, nowSeconds).map(([name]) => name);
    if (expired.length === 0) return;
    this.table.update(counter.item, {}, expired);
    for (const name of expired) counter.watermarks.delete(name);
  }
}
