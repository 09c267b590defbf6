import { STATUS_FIELDS } from '../functions/media-log/model/entry-fields';
import { WATERMARK_RETENTION_SECONDS } from '../functions/media-log/fold/stream-functions';
import { CounterTable } from './key-heat-counters';
import { EntryWrites } from './key-heat-entries';
import { SteadyTraffic, steadyModel, type SteadyModel } from './key-heat-steady';
import { DeltaStages, deltaStreamOptions } from './key-heat-deltas';
import { streamOptions, StreamShards, type StreamOptions } from './key-heat-stream';
import { lifecycleSeconds, pipelineTraffic, xorshift, type PipelineRequest, type TimedChange, type TrafficOptions } from './key-heat-traffic';
import { WriteTally, type WriteTotal } from './key-heat-writes';
import { progressBar } from './report';

/**
 * A day of the media pipeline at the design rate, compressed, for the `key-heat` bench.
 *
 * Every write of a day (18,000 table writes/s for 86,400 s) through the product's builders would take
 * hours here. The heat of a key and the cost of a lifecycle are set by what happens within a minute
 * (the requests and changes in flight, the batches being cut), and steady traffic makes every
 * minute alike but for a few moments of the day; what does build up over the day is the state of
 * the long-lived counter items (the counts and status combinations they hold, and one watermark
 * per stream shard that wrote them within the watermark retention), which sets what every counter
 * write costs. So the day is played as:
 *
 * - Windows spread over the day, each simulated write by write: a warm-up as long as a lifecycle
 *   (uncounted, it starts from no entry in flight and fills the pipeline: entries, their status
 *   changes, the stream's open batches), then the counted seconds. They are placed where the day
 *   differs: early (young day and hour items), across a stream shard rollover (the closing shards'
 *   last batches, then every counter item carries their watermarks beside the new shards'), when
 *   those watermarks expire (the fold's writes remove them), at ordinary times, and across the turn
 *   of the day (changes of the old day's entries still move its counters while the new day's items
 *   are born).
 * - Between windows, each counter item is brought up to date when the fold first writes it again,
 *   by what steady traffic would have written into it meanwhile (key-heat-steady.ts): its counts,
 *   the combinations its entries passed through, its version, and the watermarks of the shards that
 *   wrote it within the retention, with the shards' rollovers in between. An item new to the run
 *   gets everything since its bucket began (a month item: the days of the month before).
 *
 * Peaks are over the counted seconds only: a whole day has more seconds, so its busiest second lies
 * a little higher (model/shards.ts sizes the shards for a day's busiest second).
 */

/** A counted window: where in the day, and why there. */
export interface DayWindow {
  /** The first counted instant (ISO-8601 UTC). */
  readonly at: string;
  readonly why: string;
}

/** How the day is compressed. */
export interface DayPlan {
  readonly windows: readonly DayWindow[];
  /** Counted seconds of each window (after its warm-up). */
  readonly countedSeconds: number;
  /**
   * Lifecycles drawn for the model of the stretches between windows. Its rarest combination is
   * about one in this many: rarer ones, which the most written items would hold after weeks of
   * traffic, are left out (a million lifecycles know ~660 combinations, 3.2 million ~710).
   */
  readonly modelLifecycles: number;
}

/** A few seconds before the closed shards' watermarks expire after the 02:00 rollover: their last writes were at the rollover. */
const BEFORE_EXPIRY = new Date(Date.parse('2026-03-10T02:00:00Z') + (WATERMARK_RETENTION_SECONDS - 5) * 1000).toISOString();

/** The moments of the day a plan counts. */
export const DAY_WINDOWS = {
  early: { at: '2026-03-10T00:30:00.000Z', why: 'early in the day: young day and hour counters' },
  rollover: { at: '2026-03-10T01:59:58.000Z', why: 'across a shard rollover: the closing shards’ last batches, then items carry their watermarks and the new shards’' },
  expiry: { at: BEFORE_EXPIRY, why: 'the closed shards’ watermarks expire: the fold removes them, a write more per item' },
  morning: { at: '2026-03-10T09:20:00.000Z', why: 'an ordinary moment' },
  afternoon: { at: '2026-03-10T16:45:00.000Z', why: 'an ordinary moment' },
  dayTurn: { at: '2026-03-10T23:59:55.000Z', why: 'the turn of the day: the old day’s items still move, the new day’s are born' },
} as const satisfies Record<string, DayWindow>;

/** The full day (six windows of 15 counted seconds) and the quick one (`--quick`: 10 s across a rollover). */
export const DAY_PLANS = {
  full: { windows: Object.values(DAY_WINDOWS), countedSeconds: 15, modelLifecycles: 1_000_000 },
  quick: { windows: [DAY_WINDOWS.rollover], countedSeconds: 10, modelLifecycles: 100_000 },
  /**
   * One run of the shard sweep (key-heat-shards.ts): 5 s across a rollover, where items hold the
   * most watermarks and every shard cuts a batch at once, then 5 s of an ordinary moment, what
   * almost every second of the day costs.
   */
  shardSweep: { windows: [DAY_WINDOWS.rollover, DAY_WINDOWS.morning], countedSeconds: 5, modelLifecycles: 100_000 },
} as const satisfies Record<string, DayPlan>;

/** What a simulated day wrote, and how it ran. */
export interface DayRun {
  readonly plan: DayPlan;
  readonly traffic: TrafficOptions;
  readonly stream: StreamOptions;
  /** The deltas table's stream, which the second stage reads and whose shards write the counters. */
  readonly deltaStream: StreamOptions;
  readonly model: SteadyModel;
  readonly warmUpSeconds: number;
  /** Every counted write. */
  readonly tally: WriteTally;
  /** What each window's counted seconds wrote, per table and index (as `tally.totals`), in the plan's order. */
  readonly windowTotals: readonly ReadonlyMap<string, WriteTotal>[];
  /** The counter items at the end of the day. */
  readonly counters: CounterTable;
  /** Lifecycles requested in the counted seconds. */
  readonly lifecycles: number;
  /** Batches the first stage received in the windows, and their records. */
  readonly batches: number;
  readonly records: number;
  /** Batches the second stage received, and the delta items they held. */
  readonly deltaBatches: number;
  readonly deltaItems: number;
  /** Seconds the windows simulated (warm-ups included). */
  readonly simulatedSeconds: number;
  readonly cpuSeconds: number;
}

const DAY_MS = 86_400_000;

/**
 * Shards of the deltas table's stream: one per partition of that table, which takes a partition per
 * 1,000 write units a second. At the design rate its writes (each batch's delta items and watermark,
 * twice in a transaction, and their deletes) stay under 16,000 units a second whatever the media log's
 * shard count (the bench prints the table's peak beside this, to check it).
 */
export const DELTA_STREAM_SHARDS = 16;

/** Table writes per second of the traffic: a put per request and an update per status change. */
export function tableWritesPerSecond(traffic: TrafficOptions): number {
  return traffic.entriesPerSecond * (1 + 2 * STATUS_FIELDS.length);
}

/**
 * The entries of one simulated stretch and the status changes still to come, played through the
 * table's writes (and so the stream and the fold) in the order they happen.
 */
class Stretch {
  private readonly scheduled = new Map<number, TimedChange[]>();
  private readonly changesLeft = new Map<string, number>();

  public constructor(
    private readonly entries: EntryWrites,
    private readonly startMs: number,
    private readonly endMs: number,
  ) {}

  /**
   * A request sent before `fromMs`, from when the stretch is played write by write: only its
   * changes from then on matter, so it is stored as its earlier changes left it (each field's are
   * in the order they happened), without writes, its counters moved by one record just before
   * `fromMs`. One whose changes are all over is left out.
   */
  public restore({ entry, changes }: PipelineRequest, fromMs: number): void {
    const later = changes.filter((change) => change.ms >= fromMs);
    if (later.length === 0) return;
    this.entries.restore(entry, changes.filter((change) => change.ms < fromMs).map(({ change }) => change), fromMs - 1);
    this.schedule(entry.id, later);
  }

  /** One second from `secondMs`: its requests and the changes due in it, in the order they happen. */
  public play(secondMs: number, requests: readonly PipelineRequest[]): void {
    const happenings: (PipelineRequest | TimedChange)[] = [...requests, ...(this.scheduled.get(secondMs) ?? [])];
    this.scheduled.delete(secondMs);
    happenings.sort((a, b) => a.ms - b.ms);
    for (const happening of happenings) {
      if ('change' in happening) this.change(happening);
      else {
        this.entries.request(happening.entry, happening.ms, happening.family);
        this.schedule(happening.entry.id, happening.changes);
      }
    }
  }

  private change({ change, ms }: TimedChange): void {
    this.entries.change(change, ms);
    const left = (this.changesLeft.get(change.id) as number) - 1;
    if (left > 0) return void this.changesLeft.set(change.id, left);
    this.changesLeft.delete(change.id);
    this.entries.finish(change.id);
  }

  private schedule(id: string, changes: readonly TimedChange[]): void {
    this.changesLeft.set(id, changes.length);
    for (const change of changes) {
      // Changes after the stretch are left to the steady model.
      if (change.ms >= this.endMs) continue;
      const second = change.ms - ((change.ms - this.startMs) % 1000);
      const list = this.scheduled.get(second);
      if (list) list.push(change);
      else this.scheduled.set(second, [change]);
    }
  }
}

/**
 * Play the day of `plan`: each window write by write, the stretches between them by the steady
 * model. A window's warm-up begins with no entry in flight; its first seconds only store the
 * entries still changing later (their writes are uncounted and their records would only be folded
 * uncounted), and its last seconds, a batching window's worth, play every write, so that the
 * stream's open batches (none began longer ago) are those of steady traffic when counting begins.
 */
export function simulateDay(plan: DayPlan, traffic: TrafficOptions, streamOverrides: Partial<StreamOptions> = {}, deltaShards: number = DELTA_STREAM_SHARDS): DayRun {
  const cpu = process.cpuUsage();
  const stream = { ...streamOptions(tableWritesPerSecond(traffic)), ...streamOverrides };
  const deltaStream = deltaStreamOptions(stream, deltaShards);
  // A lifecycle, and at least the two stages' batching windows: the second stage's batches hold the
  // first's of a window before, so both are steady traffic's when counting begins.
  const foldSeconds = Math.ceil((stream.batchingWindowMs + deltaStream.batchingWindowMs) / 1000);
  const warmUpSeconds = Math.max(Math.ceil(lifecycleSeconds(traffic)), foldSeconds);
  const settleSeconds = Math.min(warmUpSeconds, foldSeconds);
  // The counters are written by the deltas stream's shards: the steady model is of their batches.
  const model = steadyModel(traffic, deltaStream, plan.modelLifecycles, new Date(plan.windows[0]?.at ?? 0));
  const steady = new SteadyTraffic(model, traffic, deltaStream);
  const tally = new WriteTally();
  const counters = new CounterTable(tally, steady.catchUp);
  const stages = new DeltaStages(tally, counters, deltaStream, xorshift(traffic.seed * 31));
  const shards = new StreamShards(stream, stages.fold, xorshift(traffic.seed));
  const entries = new EntryWrites(tally, shards);
  const windowSeconds = warmUpSeconds + plan.countedSeconds;
  const bar = progressBar('key-heat', plan.windows.length * windowSeconds);
  const windowTotals: Map<string, WriteTotal>[] = [];
  for (const window of plan.windows) {
    const before = new Map([...tally.totals].map(([target, total]) => [target, { ...total }]));
    const startMs = Date.parse(window.at) - warmUpSeconds * 1000;
    const endMs = startMs + windowSeconds * 1000;
    const playedFromMs = startMs + (warmUpSeconds - settleSeconds) * 1000;
    steady.beginStretch(startMs, endMs);
    tally.counting = false;
    const stretch = new Stretch(entries, startMs, endMs);
    let second = 0;
    for (const requests of pipelineTraffic(traffic, new Date(startMs), windowSeconds)) {
      const secondMs = startMs + second * 1000;
      if (secondMs < playedFromMs) for (const request of requests) stretch.restore(request, playedFromMs);
      else {
        tally.counting = second >= warmUpSeconds;
        stretch.play(secondMs, requests);
        shards.advanceTo(secondMs + 1000);
        stages.stream.advanceTo(secondMs + 1000);
        tally.endSecond();
      }
      second += 1;
      bar.increment(1);
    }
    windowTotals.push(new Map([...tally.totals].map(([target, { writes, units }]) => [target, { writes: writes - (before.get(target)?.writes ?? 0), units: units - (before.get(target)?.units ?? 0) }])));
    // What the window leaves open (records no batch took, entries still changing) is the next stretch's.
    shards.discardOpen();
    stages.stream.discardOpen();
    entries.clear();
    for (const counter of counters.items.values()) if (counter.syncedTo >= startMs / 1000) counter.syncedTo = endMs / 1000;
  }
  bar.stop();
  // The counter items as the day leaves them: each brought to the end of the last window (an hour item to its hour's end).
  const firstMs = Date.parse(plan.windows[0]?.at ?? '');
  const lastMs = Date.parse(plan.windows[plan.windows.length - 1]?.at ?? '') + plan.countedSeconds * 1000;
  steady.beginStretch(firstMs - (firstMs % DAY_MS), lastMs);
  for (const counter of counters.items.values()) steady.advance(counter, counters, lastMs / 1000);
  const used = process.cpuUsage(cpu);
  return {
    plan,
    traffic,
    stream,
    deltaStream,
    model,
    warmUpSeconds,
    tally,
    windowTotals,
    counters,
    lifecycles: traffic.entriesPerSecond * plan.countedSeconds * plan.windows.length,
    batches: shards.batches,
    records: shards.records,
    deltaBatches: stages.stream.batches,
    deltaItems: stages.stream.records,
    simulatedSeconds: plan.windows.length * windowSeconds,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}
