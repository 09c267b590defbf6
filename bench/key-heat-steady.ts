import { WATERMARK_RETENTION_SECONDS } from '../functions/media-log/fold/stream-functions';
import { comboAttribute, counterKeyId, entryCounterKeys, TOTAL_ATTRIBUTE, VERSION_ATTRIBUTE, watermarkAttribute } from '../functions/media-log/model/counters';
import { STATUS_FIELDS, type MediaStatus, type StatusField } from '../functions/media-log/model/entry-fields';
import { bucketEnd, bucketStart } from '../functions/media-log/model/time-buckets';
import { MAX_BATCH_PAYLOAD_BYTES } from '../local/fold/stream-batches';
import { levelOf, type CounterItem, type CounterTable } from './key-heat-counters';
import { EntryWrites } from './key-heat-entries';
import { generationAt, generationStart, sequenceOf, shardIdOf, type StreamOptions } from './key-heat-stream';
import { familyOf, lifecycleSeconds, pipelineTraffic, userRates, xorshift, type TrafficOptions } from './key-heat-traffic';
import { WriteTally } from './key-heat-writes';

/**
 * What steady traffic leaves in a counter item over a stretch of the day the `key-heat` bench does
 * not simulate write by write: its counts, its status combinations, its version and its watermarks,
 * worked out from the traffic's own lifecycles and the stream's batching.
 *
 * - Counts: an item counts `rate × seconds` more entries (its rate: the sum of the rates of the
 *   users whose entries it counts, found with the product's counter keys), each finished in a
 *   status combination with the share the traffic's lifecycles end in it.
 * - Combinations: the fold creates a combination attribute the first time a batch moves it by a
 *   non-zero sum, and it stays (at 0 once its entries moved on). An entry does that for the
 *   combination it ends in, and for a combination it passes through when a batch cut falls while
 *   it holds it: with probability min(1, held / batch period). So over N entries an attribute
 *   appears with probability 1 − exp(−N × p), p its mean over the lifecycles.
 * - Version: one per fold write; a shard's batch writes the item when it holds one of the item's
 *   records that move counters, so each shard writes it with probability 1 − exp(−records per batch).
 * - Watermarks: each shard's last write lies a geometric number of its batches (at that
 *   probability) before the stretch's end; shards of the generation before a rollover stopped at
 *   the rollover. Watermarks older than the retention are gone, as the fold's next write removes them.
 */

/** What the traffic's lifecycles and the stream's batches are like, per entry. */
export interface SteadyModel {
  /** Per status combination attribute: the chance that one entry makes a batch create it (see above). */
  readonly created: ReadonlyMap<string, number>;
  /** Per status combination attribute: the share of entries that end in it. */
  readonly finals: ReadonlyMap<string, number>;
  /** Stream records per lifecycle that move its counters (its put, and each change of its combination). */
  readonly movingRecords: number;
  /** Mean payload bytes of one stream record. */
  readonly recordBytes: number;
  /** Seconds between two batches of one shard. */
  readonly batchSeconds: number;
}

/** Lifecycles played through the table's writes to weigh the stream's records. */
const WEIGHED_LIFECYCLES = 500;

/** Mean payload bytes of a stream record of the traffic, from lifecycles written through the product's builders. */
function meanRecordBytes(traffic: TrafficOptions, start: Date): number {
  let records = 0;
  let bytes = 0;
  const writes = new EntryWrites(new WriteTally(), {
    record: (_key, _ms, size) => {
      records += 1;
      bytes += size;
    },
  });
  const requests = pipelineTraffic({ ...traffic, entriesPerSecond: WEIGHED_LIFECYCLES }, start, 1).next().value ?? [];
  for (const { entry, family, changes } of requests) {
    writes.request(entry, Date.parse(entry.send), family);
    for (const { ms, change } of [...changes].sort((a, b) => a.ms - b.ms)) writes.change(change, ms);
  }
  return bytes / records;
}

/**
 * The model of `lifecycles` lifecycles of the traffic (drawn from `start` on) on the stream of
 * `stream`. A batch lasts until it is full, its payload reaches the limit, or its window ends.
 */
export function steadyModel(traffic: TrafficOptions, stream: StreamOptions, lifecycles: number, start: Date): SteadyModel {
  const recordBytes = meanRecordBytes(traffic, start);
  const recordsPerShard = (traffic.entriesPerSecond * (1 + 2 * STATUS_FIELDS.length)) / stream.shards;
  const batchSeconds = Math.min(stream.batchingWindowMs / 1000, stream.batchSize / recordsPerShard, MAX_BATCH_PAYLOAD_BYTES / (recordsPerShard * recordBytes));
  const created = new Map<string, number>();
  const finals = new Map<string, number>();
  const add = (map: Map<string, number>, combo: string, value: number) => map.set(combo, (map.get(combo) ?? 0) + value / lifecycles);
  let moving = 0;
  let drawn = 0;
  for (const requests of pipelineTraffic(traffic, start, Math.ceil(lifecycles / traffic.entriesPerSecond))) {
    for (const { ms: sent, entry: sentEntry, changes } of requests) {
      if (drawn >= lifecycles) break;
      drawn += 1;
      // The entry's statuses as its changes come, changed in place (a copy per change costs more than the rest).
      const statuses: Record<StatusField, MediaStatus> = { ...sentEntry };
      let combo = comboAttribute(statuses);
      let since = sent;
      moving += 1;
      for (const { ms, change } of [...changes].sort((a, b) => a.ms - b.ms)) {
        statuses[change.field] = change.value;
        const next = comboAttribute(statuses);
        // A change that keeps the combination moves no counter.
        if (next === combo) continue;
        moving += 1;
        add(created, combo, Math.min(1, (ms - since) / 1000 / batchSeconds));
        [combo, since] = [next, ms];
      }
      add(created, combo, 1);
      add(finals, combo, 1);
    }
  }
  return { created, finals, movingRecords: moving / drawn, recordBytes, batchSeconds };
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/**
 * Brings counter items up to date over the stretches of the day that are not simulated. A
 * simulated stretch begins with {@link beginStretch}; the first time the fold writes an item in it,
 * {@link catchUp} adds what steady traffic wrote into the item since it was last simulated (since
 * its bucket began, for an item new to the run).
 */
export class SteadyTraffic {
  private rates = new Map<string, number>();
  private stretchStart = Number.NEGATIVE_INFINITY;
  private readonly random: () => number;
  private readonly recordsPerShardSecond: number;

  public constructor(
    public readonly model: SteadyModel,
    private readonly traffic: TrafficOptions,
    private readonly stream: StreamOptions,
  ) {
    this.random = xorshift(traffic.seed * 7919);
    this.recordsPerShardSecond = (traffic.entriesPerSecond * model.movingRecords) / stream.shards;
  }

  /**
   * A simulated stretch from `startMs` to `endMs`: the entry rate of every counter item its entries
   * are counted in, from each user's rate and the product's counter keys of the user's entries.
   */
  public beginStretch(startMs: number, endMs: number): void {
    this.stretchStart = startMs / 1000;
    this.rates = new Map();
    const users = userRates(this.traffic);
    // An hour is the finest counter bucket: the keys at the stretch's start and at each hour in it are all there are.
    const instants = [startMs];
    for (let hour = Math.ceil(startMs / 3_600_000) * 3_600_000; hour < endMs; hour += 3_600_000) instants.push(hour);
    for (const instant of instants) {
      const send = new Date(instant).toISOString();
      const atInstant = new Map<string, number>();
      for (const [userId, rate] of users) {
        for (const key of entryCounterKeys({ send, 'user-id': userId, family: familyOf(userId) })) {
          const id = counterKeyId(key);
          atInstant.set(id, (atInstant.get(id) ?? 0) + rate);
        }
      }
      for (const [id, rate] of atInstant) this.rates.set(id, rate);
    }
  }

  /** What the fold calls before it writes an item: an item not written since before this stretch is brought up to its start. */
  public readonly catchUp = (counter: CounterItem, table: CounterTable): void => {
    if (counter.syncedTo < this.stretchStart) this.advance(counter, table, this.stretchStart);
  };

  /** Add to `counter` what steady traffic writes into it from its last simulated instant until `to` (epoch seconds). */
  public advance(counter: CounterItem, table: CounterTable, to: number): void {
    const { sk } = counter.key;
    const level = levelOf(sk);
    const [opens, closes] = [seconds(bucketStart(sk)), seconds(bucketEnd(level, sk))];
    const from = Math.max(counter.syncedTo, opens);
    const until = Math.min(to, closes);
    counter.syncedTo = Math.max(counter.syncedTo, to);
    const rate = this.rates.get(counter.id) ?? 0;
    if (until <= from || rate === 0) return;
    const { model, stream } = this;
    const item = counter.item;
    const entries = rate * (until - from);
    const set: Record<string, string | number> = { [TOTAL_ATTRIBUTE]: ((item[TOTAL_ATTRIBUTE] as number | undefined) ?? 0) + Math.round(entries) };
    for (const [combo, chance] of model.created) {
      const added = Math.round(entries * (model.finals.get(combo) ?? 0));
      if (item[combo] === undefined && added === 0 && this.random() >= 1 - Math.exp(-entries * chance)) continue;
      set[combo] = ((item[combo] as number | undefined) ?? 0) + added;
    }
    const perBatch = 1 - Math.exp(-(rate * model.movingRecords * model.batchSeconds) / stream.shards);
    const writes = ((stream.shards / model.batchSeconds) * perBatch) * (until - from);
    set[VERSION_ATTRIBUTE] = ((item[VERSION_ATTRIBUTE] as number | undefined) ?? 0) + Math.round(writes);
    // The item's last writes: its entries' changes go on for a lifecycle after its bucket closes.
    const lastWrite = Math.min(to, closes + lifecycleSeconds(this.traffic));
    const oldest = lastWrite - WATERMARK_RETENTION_SECONDS;
    const marks = new Map<string, number>();
    const [first, last] = [generationAt(stream, Math.max(from, oldest) * 1000), generationAt(stream, lastWrite * 1000)];
    for (let generation = first; generation <= last; generation += 1) {
      const opened = generationStart(stream, generation) / 1000;
      const spanStart = Math.max(from, oldest, opened);
      const spanEnd = Math.min(lastWrite, generationStart(stream, generation + 1) / 1000);
      for (let shard = 0; spanEnd > spanStart && shard < stream.shards; shard += 1) {
        const at = Math.floor(spanEnd - this.sinceLastWrite(perBatch));
        if (at < spanStart) continue;
        const name = watermarkAttribute(shardIdOf(generation, shard));
        marks.set(name, at);
        set[name] = `${sequenceOf(generation, shard, Math.round(this.recordsPerShardSecond * (at - opened)))}@${at}`;
      }
    }
    const expired = [...counter.watermarks].filter(([name, at]) => at < oldest && !marks.has(name)).map(([name]) => name);
    table.restate(counter, set, expired, marks);
  }

  /** Seconds from a shard's last write of an item to now: whole batches without its records, and the phase of the last cut. */
  private sinceLastWrite(perBatch: number): number {
    const skipped = perBatch >= 1 ? 0 : Math.floor(Math.log(1 - this.random()) / Math.log(1 - perBatch));
    return (skipped + this.random()) * this.model.batchSeconds;
  }
}
