/**
 * `key-heat` (DESIGN.md sections 7b and 9): capacity on paper, checked by a program. It replays
 * simulated media pipeline traffic (2,000 new entries/s, each followed by 8 status changes) through
 * the real key builders, entry items and counter fold of the media log, counts where every write
 * lands (per partition key and per item, in one-second buckets) and what it costs in write units
 * (table, listing indexes, counters), and does the same for the previous design, on the same
 * traffic. It needs no DynamoDB. Missed targets are reported, not failed.
 *
 * Item sizes are approximate (attribute names plus values, numbers a byte per two digits, index items
 * without the 100 bytes of storage overhead); see key-heat-writes.ts and key-heat-designs.ts.
 */
import type { StatusChange } from '../functions/media-log/feed/feed-messages';
import { STATUS_FIELDS } from '../functions/media-log/model/entry-fields';
import { foldMediaLogCountsFunction } from '../functions/media-log/fold/stream-functions';
import { streamShards, StreamFoldDesign, TransactionDesign, type Design } from './key-heat-designs';
import { PIPELINE_TRAFFIC, pipelineTraffic, userShares, type TrafficOptions } from './key-heat-traffic';
import type { Heat, WriteTally, WriteTotals } from './key-heat-writes';
import { formatCount, formatTable, progressBar, sectionHeader, type TargetResult } from './report';

/** Writes a partition key may take per second: half of what a DynamoDB partition takes (DESIGN.md 7b). */
export const PARTITION_BUDGET = 500;
/** Writes one item may take per second (DESIGN.md 7b). */
export const ITEM_BUDGET = 100;
/** Write units of one entry's lifecycle (its request and 8 status changes): table, indexes and counters. */
export const LIFECYCLE_BUDGET = 40;

/** Options of {@link benchKeyHeat}. */
export interface KeyHeatOptions {
  /** The traffic (default {@link PIPELINE_TRAFFIC}); its `seconds` are the measured window. */
  readonly traffic?: Partial<TrafficOptions>;
  /** Records per fold batch (default the event source mapping's). */
  readonly batchSize?: number;
}

/** What one design wrote. */
export interface DesignFigures {
  /** The ten hottest partition keys of the table, its indexes and the counters, by peak writes in one second. */
  readonly hottestPartitions: readonly Heat[];
  /** The hottest partition key of each table and index. */
  readonly hottestPerTarget: readonly Heat[];
  /** The ten hottest items (entries and counters). */
  readonly hottestItems: readonly Heat[];
  /** Writes and write units per entry lifecycle: per second of steady traffic, over the entries requested per second. */
  readonly perLifecycle: WriteTotals;
  /** All write units per entry lifecycle. */
  readonly unitsPerLifecycle: number;
  /** Every count the figures come from, for a closer look at one key. */
  readonly tally: WriteTally;
}

/** What the simulation found. */
export interface KeyHeatResult {
  readonly traffic: TrafficOptions;
  /** Seconds simulated before the window, uncounted, so that the window starts with a minute of lifecycles in flight. */
  readonly warmUpSeconds: number;
  readonly shards: number;
  readonly batchSize: number;
  /** Processor seconds the counted seconds took (the warm-up's not included). */
  readonly cpuSeconds: number;
  readonly current: DesignFigures;
  readonly previous: DesignFigures;
}

function figuresOf(tally: WriteTally, lifecycles: number): DesignFigures {
  const perLifecycle = Object.fromEntries(Object.entries(tally.totals).map(([name, value]) => [name, value / lifecycles])) as unknown as WriteTotals;
  return {
    hottestPartitions: tally.partitions.hottest(10),
    hottestPerTarget: tally.partitions.hottestPerTarget(),
    hottestItems: tally.items.hottest(10),
    perLifecycle,
    unitsPerLifecycle: perLifecycle.tableUnits + perLifecycle.indexUnits + perLifecycle.counterUnits,
    tally,
  };
}

/** Table writes per second of the traffic: a put per request and an update per status change. */
function tableWritesPerSecond(traffic: TrafficOptions): number {
  return traffic.entriesPerSecond * (1 + 2 * STATUS_FIELDS.length);
}

/**
 * `npm run bench -- --only key-heat`: replay the traffic through both designs, a second at a time. A warm-up as long as a lifecycle
 * runs first, uncounted (it only brings the entries up to date), so that every counted second sees
 * the steady mix of new requests and changes of the minute before: the peak rates of a longer run,
 * at a fraction of its cost.
 */
export function benchKeyHeat(options: KeyHeatOptions = {}): KeyHeatResult {
  const traffic = { ...PIPELINE_TRAFFIC, ...options.traffic };
  const warmUpSeconds = Math.ceil(traffic.statusDelays.processing[1] + traffic.statusDelays.final[1]);
  const total = warmUpSeconds + traffic.seconds;
  const batchSize = options.batchSize ?? foldMediaLogCountsFunction.batchSize;
  const shards = streamShards(tableWritesPerSecond(traffic));
  const current = new StreamFoldDesign(shards, batchSize);
  const previous = new TransactionDesign();
  const designs: readonly Design[] = [current, previous];
  const scheduled = new Map<number, StatusChange[]>();
  const changesLeft = new Map<string, number>();
  const requests = pipelineTraffic({ ...traffic, start: new Date(traffic.start.getTime() - warmUpSeconds * 1000), seconds: total });
  const bar = progressBar('key-heat', total);
  let cpu = process.cpuUsage();
  for (let second = 0; second < total; second += 1) {
    const counted = second >= warmUpSeconds;
    if (second === warmUpSeconds) cpu = process.cpuUsage();
    const next = requests.next();
    for (const { entry, changes } of next.done ? [] : next.value.requests) {
      // A request of the warm-up matters only through what it still changes in the window: it is stored, brought up to the window's start, and only its later changes are scheduled.
      const due = changes.filter(({ second: when }) => when >= warmUpSeconds && when < total);
      if (!counted && due.length === 0) continue;
      changesLeft.set(entry.id, due.length);
      for (const design of designs) design.request(entry, counted);
      for (const { second: when, change } of changes) {
        if (when < warmUpSeconds) for (const design of designs) design.change(change, false);
      }
      for (const { second: when, change } of due) {
        const list = scheduled.get(when);
        if (list) list.push(change);
        else scheduled.set(when, [change]);
      }
    }
    for (const change of scheduled.get(second) ?? []) {
      for (const design of designs) design.change(change, counted);
      const left = (changesLeft.get(change.id) as number) - 1;
      if (left > 0) changesLeft.set(change.id, left);
      else {
        changesLeft.delete(change.id);
        for (const design of designs) design.finish(change.id);
      }
    }
    scheduled.delete(second);
    for (const design of designs) design.endSecond(second);
    bar.increment(1);
  }
  bar.stop();
  const used = process.cpuUsage(cpu);
  const lifecycles = traffic.entriesPerSecond * traffic.seconds;
  return { traffic, warmUpSeconds, shards, batchSize, cpuSeconds: (used.user + used.system) / 1e6, current: figuresOf(current.tally, lifecycles), previous: figuresOf(previous.tally, lifecycles) };
}

const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
const perSecond = (heat: Heat | undefined) => (heat ? `${formatCount(heat.peak)}/s` : 'n/a');
const where = (heat: Heat | undefined) => (heat ? `${heat.target} ${heat.key}` : 'n/a');
const units = (value: number) => Number(value.toFixed(1));

function heatTable(heats: readonly Heat[], budget: number): string {
  return formatTable(['table / index', 'key', 'peak writes/s', 'budget'], heats.map((heat) => [heat.target, heat.key, heat.peak, heat.peak <= budget ? `≤ ${budget}` : `OVER ${budget}`]));
}

function trafficTable(result: KeyHeatResult): string {
  const { traffic } = result;
  const shares = userShares(traffic.users, traffic.userSkew);
  const top = (count: number) => shares.slice(0, count).reduce((sum, share) => sum + share, 0);
  const tableWrites = tableWritesPerSecond(traffic);
  return formatTable(['traffic', 'as simulated'], [
    ['requests', `${formatCount(traffic.entriesPerSecond)} entries/s, each followed by ${2 * STATUS_FIELDS.length} status changes: ${formatCount(tableWrites)} table writes/s`],
    ['window', `${formatCount(traffic.seconds)} s counted, after ${result.warmUpSeconds} s of uncounted warm-up, so every counted second has a lifecycle's worth of changes in flight (an hour of it would take ~${formatCount((result.cpuSeconds * 3600) / traffic.seconds / 60)} min of CPU here)`],
    ['status changes', `each field pending → processing after ${traffic.statusDelays.processing.join('–')} s → final value ${traffic.statusDelays.final.join('–')} s later`],
    ['users', `${formatCount(traffic.users)}, Zipf ${traffic.userSkew}: heaviest ${percent(top(1))}, top 10 ${percent(top(10))}, top 100 ${percent(top(100))}, median ${percent(shares[Math.floor(shares.length / 2)] ?? 0)}`],
    ['urls', `${traffic.requestsPerUrl} requests per url on average, within one minute`],
    ['stream', `${result.shards} shard(s): ${formatCount(tableWrites)} table writes/s ÷ 1,000 per partition; a batch closes at ${formatCount(result.batchSize)} records or when its 1 s window ends`],
  ]);
}

function lifecycleTable(result: KeyHeatResult): string {
  const row = (name: string, figures: DesignFigures) => {
    const life = figures.perLifecycle;
    return [name, units(life.tableWrites), units(life.tableUnits), units(life.indexWrites), units(life.indexUnits), units(life.counterWrites), units(life.counterUnits), units(figures.unitsPerLifecycle)];
  };
  return formatTable(
    ['design', 'table writes', 'table WCU', 'index writes', 'index WCU', 'counter writes', 'counter WCU', 'total WCU'],
    [row('stream fold (now)', result.current), row('transactions (previous)', result.previous)],
  );
}

/** The figures as the bench prints them. */
export function formatKeyHeat(result: KeyHeatResult): string {
  const designs = [
    ['stream fold (now): put per request, update per status change, counters folded from the stream', result.current],
    ['transactions (previous): entry and 10 counter items per change', result.previous],
  ] as const;
  return [
    trafficTable(result),
    ...designs.flatMap(([title, figures]) => [
      sectionHeader(`key-heat, ${title}`),
      `hottest partition key of each table and index:\n${heatTable(figures.hottestPerTarget, PARTITION_BUDGET)}`,
      `\nten hottest partition keys:\n${heatTable(figures.hottestPartitions, PARTITION_BUDGET)}`,
      `\nten hottest items:\n${heatTable(figures.hottestItems, ITEM_BUDGET)}`,
    ]),
    sectionHeader('key-heat, per entry lifecycle (request + 8 status changes), before and after'),
    lifecycleTable(result),
    'per lifecycle: what a counted second writes, over the entries requested per second. WCU: 1 per KB of the item (sizes approximate: attribute names\nplus values), 2 per KB inside a transaction; an index write costs what the index holds; a counter item what this run wrote into it.',
    '',
    formatTable(['design', 'hottest partition key', 'hottest item', 'WCU per lifecycle'], designs.map(([title, figures]) => [title.split(':')[0] as string, `${perSecond(figures.hottestPartitions[0])} ${where(figures.hottestPartitions[0])}`, `${perSecond(figures.hottestItems[0])} ${where(figures.hottestItems[0])}`, units(figures.unitsPerLifecycle)])),
  ].join('\n');
}

/** The summary lines: no partition key over 500 writes/s, no item over 100, ≤ 40 write units per lifecycle. */
export function keyHeatTargets(result: KeyHeatResult): TargetResult[] {
  const { current, previous } = result;
  const [partition, item] = [current.hottestPartitions[0], current.hottestItems[0]];
  return [
    { bench: 'key-heat: hottest partition key (table, indexes, counters)', target: `≤ ${PARTITION_BUDGET} writes/s`, measured: `${perSecond(partition)} ${where(partition)} (previous ${perSecond(previous.hottestPartitions[0])})`, pass: (partition?.peak ?? 0) <= PARTITION_BUDGET },
    { bench: 'key-heat: hottest item', target: `≤ ${ITEM_BUDGET} writes/s`, measured: `${perSecond(item)} ${where(item)} (previous ${perSecond(previous.hottestItems[0])})`, pass: (item?.peak ?? 0) <= ITEM_BUDGET },
    { bench: 'key-heat: write units per entry lifecycle', target: `≤ ${LIFECYCLE_BUDGET}`, measured: `${units(current.unitsPerLifecycle)} (previous ${units(previous.unitsPerLifecycle)})`, pass: current.unitsPerLifecycle <= LIFECYCLE_BUDGET },
  ];
}
