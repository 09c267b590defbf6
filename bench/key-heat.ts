/**
 * `key-heat` (DESIGN.md sections 7b and 9): capacity on paper, checked by a program. It plays a day
 * of media pipeline traffic at the design rate (2,000 new entries/s, each followed by 8 status
 * changes; one customer sending 40 %) through the product's own builders: entry items
 * (`entryItem`), status updates (`statusUpdate`), and the counter fold in its two stages
 * (`deltaWrites`, `readDeltaRecords`, `summed`, `counterWrite`) on the streams' batches as AWS cuts
 * them. It counts where every write lands (per
 * partition key of the table and of each index, and per item, in one-second buckets) and what it
 * costs in write units. It needs no DynamoDB; missed targets are reported, not failed.
 *
 * The day is compressed (key-heat-day.ts); the write rules and sizes are in key-heat-writes.ts, the
 * stream in key-heat-stream.ts, the counters in key-heat-counters.ts and key-heat-steady.ts.
 */
import { WATERMARK_RETENTION_SECONDS } from '../functions/media-log/fold/stream-functions';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../functions/shared/tables/media-log-table';
import { MAX_BATCH_PAYLOAD_BYTES } from '../local/fold/stream-batches';
import { counterKind, type CounterItem } from './key-heat-counters';
import { DAY_PLANS, simulateDay, tableWritesPerSecond, type DayPlan, type DayRun } from './key-heat-day';
import { lifecycleWriteUnits, perLifecycle, typicalLifecycle, type LifecycleWrites } from './key-heat-lifecycle';
import type { StreamOptions } from './key-heat-stream';
import { HEAVIEST_USER, HOT_URL, PIPELINE_TRAFFIC, userRates, type TrafficOptions } from './key-heat-traffic';
import type { Heat, WriteTotal } from './key-heat-writes';
import { formatCount, formatTable, sectionHeader, type TargetResult } from './report';

/** Writes a partition key may take per second: half of what a DynamoDB partition takes (DESIGN.md 7b). */
export const PARTITION_BUDGET = 500;
/** Writes one item may take per second (DESIGN.md 7b). */
export const ITEM_BUDGET = 100;
/**
 * Write units one item, or one partition key, may take per second (DESIGN.md 9, round five): an
 * item written 100 times a second must weigh no more than 5 KB, and a partition takes 1,000.
 */
export const UNITS_BUDGET = 500;
/** Write units of one entry's lifecycle (its request and 8 status changes, and the fold's share). */
export const LIFECYCLE_BUDGET = 40;

/** Options of {@link benchKeyHeat}. */
export interface KeyHeatOptions {
  /** How the day is compressed (default {@link DAY_PLANS}.full). */
  readonly plan?: DayPlan;
  readonly traffic?: Partial<TrafficOptions>;
  readonly stream?: Partial<StreamOptions>;
  /** Shards of the deltas table's stream (default DELTA_STREAM_SHARDS). */
  readonly deltaShards?: number;
}

/** The ten hottest partition keys of one table or index, by writes and by write units. */
export interface TargetHeats {
  readonly target: string;
  readonly hottest: readonly Heat[];
  readonly hottestByUnits: readonly Heat[];
}

/** A counter item as the report shows it: its size and watermarks at the end of the day, and the most watermarks it held. */
export interface CounterFigures {
  readonly key: string;
  readonly kind: string;
  readonly bytes: number;
  readonly attributes: number;
  readonly watermarks: number;
  readonly mostWatermarks: number;
}

/** What the simulated day found. */
export interface KeyHeatResult {
  readonly day: DayRun;
  /** The ten hottest partition keys of the table, of each index, of the deltas table and of the counters table, by peak writes in one counted second. */
  readonly partitions: readonly TargetHeats[];
  /** The ten hottest items of the table and the counters table, by writes and by write units. */
  readonly hottestItems: readonly Heat[];
  readonly hottestItemsByUnits: readonly Heat[];
  /** Writes and write units per entry lifecycle: what the counted seconds wrote, over the entries they requested. */
  readonly perLifecycle: LifecycleWrites;
  /** Every counter item at the end of the day. */
  readonly counters: readonly CounterFigures[];
  /** The ten counter items written most often, with their peak. */
  readonly hottestCounters: readonly { readonly heat: Heat; readonly figures: CounterFigures }[];
  /** One typical lifecycle computed alone (for DynamoDB Local's consumed capacity). */
  readonly single: LifecycleWrites;
}

function counterFigures(counter: CounterItem, day: DayRun): CounterFigures {
  const size = day.counters.sizeOf(counter);
  return { key: `${counter.key.pk} ${counter.key.sk}`, kind: counterKind(counter.key), bytes: size.bytes, attributes: size.attributes, watermarks: counter.watermarks.size, mostWatermarks: counter.mostWatermarks };
}

/** `npm run bench -- --only key-heat`: play the day and gather its figures. */
export function benchKeyHeat(options: KeyHeatOptions = {}): KeyHeatResult {
  const day = simulateDay(options.plan ?? DAY_PLANS.full, { ...PIPELINE_TRAFFIC, ...options.traffic }, options.stream, options.deltaShards);
  const targets = [mediaLogTable.id, ...mediaLogTable.indexes.map((index) => `${mediaLogTable.id} ${index.indexName}`), mediaLogDeltasTable.id, mediaLogCountsTable.id];
  const counters = [...day.counters.items.values()].map((counter) => counterFigures(counter, day));
  const byKey = new Map(counters.map((figures) => [figures.key, figures]));
  const { entry, changes } = typicalLifecycle();
  return {
    day,
    partitions: targets.map((target) => {
      const heat = day.tally.partitions.target(target);
      return { target, hottest: heat.hottest(10).slice(0, 10), hottestByUnits: heat.hottestByUnits(10).slice(0, 10) };
    }),
    hottestItems: day.tally.items.hottest(10),
    hottestItemsByUnits: day.tally.items.hottestByUnits(10),
    perLifecycle: perLifecycle(day.tally.totals, day.lifecycles),
    counters,
    hottestCounters: day.tally.items.target(mediaLogCountsTable.id).hottest(10).slice(0, 10).map((heat) => ({ heat, figures: byKey.get(heat.key) as CounterFigures })),
    single: lifecycleWriteUnits(entry, changes),
  };
}

const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
const perSecond = (heat: Heat | undefined) => (heat ? `${formatCount(heat.peak)}/s` : 'n/a');
const unitsPerSecond = (heat: Heat | undefined) => (heat ? `${formatCount(heat.peakUnits)} WCU/s` : 'n/a');
const where = (heat: Heat | undefined) => (heat ? `${heat.target} ${heat.key}` : 'n/a');
const units = (value: number) => Number(value.toFixed(2));
const bytes = (value: number) => `${formatCount(value)} B`;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

/** A table of hot keys: peak writes/s and peak write units/s, each against its budget. */
export function heatTable(heats: readonly Heat[], budget: { readonly writes: number; readonly units: number }, withTarget: boolean): string {
  const within = (value: number, most: number) => (value <= most ? `≤ ${formatCount(most)}` : `OVER ${formatCount(most)}`);
  const rows = heats.map((heat) => [...(withTarget ? [heat.target] : []), heat.key, heat.peak, within(heat.peak, budget.writes), heat.peakUnits, within(heat.peakUnits, budget.units)]);
  return formatTable([...(withTarget ? ['table / index'] : []), 'key', 'peak writes/s', 'budget', 'peak write units/s', 'budget'], rows);
}

/** Budgets of a partition key and of an item. */
export const KEY_BUDGETS = {
  partition: { writes: PARTITION_BUDGET, units: UNITS_BUDGET },
  item: { writes: ITEM_BUDGET, units: UNITS_BUDGET },
} as const;

function trafficTable(day: DayRun): string {
  const { traffic, stream, model, plan } = day;
  const rates = [...userRates(traffic)].filter(([user]) => user !== HEAVIEST_USER).map(([, rate]) => rate);
  const tableWrites = tableWritesPerSecond(traffic);
  const rolloverHours = stream.rolloverMs / 3_600_000;
  return formatTable(['traffic', 'as simulated'], [
    ['requests', `${formatCount(traffic.entriesPerSecond)} entries/s, each followed by 8 status changes: ${formatCount(tableWrites)} table writes/s`],
    ['users', `user ${HEAVIEST_USER} sends ${percent(traffic.heaviestShare)} (${formatCount(traffic.entriesPerSecond * traffic.heaviestShare)}/s); the rest ${formatCount(traffic.users)} users, Zipf ${traffic.userSkew}: ${units(Math.max(...rates))}/s down to ${units(Math.min(...rates))}/s, median ${units(median(rates))}/s`],
    ['status changes', `each field pending → processing after ${traffic.statusDelays.processing.join('–')} s → its final value ${traffic.statusDelays.final.join('–')} s later (finals of the sample entries: mostly success)`],
    ['urls', `${traffic.requestsPerUrl} requests per url on average, within one minute; one url (${HOT_URL}) ${percent(traffic.hotUrlShare)} of all requests (${formatCount(traffic.entriesPerSecond * traffic.hotUrlShare)}/s)`],
    ['stream', `${stream.shards} shards (${formatCount(tableWrites)} table writes/s ÷ 1,000 per partition), records by a hash of the entry's key; every shard rolls over every ${rolloverHours} h (from 0${stream.rolloverOffsetMs / 3_600_000}:00 UTC)`],
    ['watermarks', `a counter item keeps a shard's watermark ${formatCount(WATERMARK_RETENTION_SECONDS / 60)} min after the shard last wrote it (WATERMARK_RETENTION_SECONDS)`],
    ['first stage', `batches cut at ${formatCount(stream.batchSize)} records, ${stream.batchingWindowMs / 1000} s after the first, or ${formatCount(MAX_BATCH_PAYLOAD_BYTES / 1_048_576)} MB of payload: ${formatCount(day.records / day.batches)} records per batch; each batch one transaction of its delta items and its shard's watermark`],
    ['second stage', `the deltas table's stream: ${day.deltaStream.shards} shards (DELTA_STREAM_SHARDS), batches cut ${day.deltaStream.batchingWindowMs / 1000} s after the first: ${units(day.deltaItems / Math.max(1, day.deltaBatches))} delta items per batch; each counter item written once per batch, then the deltas deleted`],
    ['day', `${plan.windows.length} window${plan.windows.length === 1 ? '' : 's'} of ${plan.countedSeconds} s counted, each after ${day.warmUpSeconds} s of uncounted warm-up; between them counter items catch up by the steady model (${model.created.size} status combinations from ${formatCount(plan.modelLifecycles)} lifecycles)`],
    ['run', `${formatCount(day.simulatedSeconds)} s simulated write by write in ${formatCount(day.cpuSeconds)} s of CPU`],
  ]);
}

function windowTable(day: DayRun): string {
  return formatTable(['counted from (UTC)', 'why there'], day.plan.windows.map((window) => [window.at.slice(11, 19), window.why]));
}

function lifecycleTable(life: LifecycleWrites): string {
  const row = (name: string, total: WriteTotal) => [name, units(total.writes), units(total.units)];
  return formatTable(['table / index', 'writes', 'write units'], [
    ...life.targets.map((target) => row(target.target, target)),
    row('table', life.table),
    row('indexes', life.indexes),
    row('deltas', life.deltas),
    row('counters', life.counters),
    row('total', life.total),
  ]);
}

function counterSizeTable(counters: readonly CounterFigures[]): string {
  const kinds = [...new Set(counters.map((counter) => counter.kind))].sort();
  return formatTable(['counter items', 'count', 'typical size', 'largest', 'attributes (typical / most)', 'watermarks (typical / most)'], kinds.map((kind) => {
    const of = counters.filter((counter) => counter.kind === kind);
    const largest = of.reduce((top, counter) => (counter.bytes > top.bytes ? counter : top));
    return [kind, of.length, bytes(median(of.map((counter) => counter.bytes))), `${bytes(largest.bytes)} ${largest.key}`, `${median(of.map((counter) => counter.attributes))} / ${Math.max(...of.map((counter) => counter.attributes))}`, `${median(of.map((counter) => counter.watermarks))} / ${Math.max(...of.map((counter) => counter.watermarks))}`];
  }));
}

function hottestCounterTable(result: KeyHeatResult): string {
  return formatTable(['counter item', 'peak writes/s', 'size at day end', 'watermarks at day end', 'most watermarks'], result.hottestCounters.map(({ heat, figures }) => [heat.key, heat.peak, bytes(figures.bytes), figures.watermarks, figures.mostWatermarks]));
}

/**
 * The deltas table's busiest second against the shards the second stage was simulated with: a
 * partition takes 1,000 write units a second, and the table's stream has one shard per partition.
 */
export function deltaTableCheck(result: KeyHeatResult): { readonly peakUnits: number; readonly partitions: number; readonly simulated: number } {
  const peakUnits = result.day.tally.partitions.target(mediaLogDeltasTable.id).totalPeakUnits();
  return { peakUnits, partitions: Math.max(1, Math.ceil(peakUnits / 1000)), simulated: result.day.deltaStream.shards };
}

function deltaTableLine(result: KeyHeatResult): string {
  const check = deltaTableCheck(result);
  return `the deltas table's busiest second took ${formatCount(check.peakUnits)} write units: ${check.partitions} partition${check.partitions === 1 ? '' : 's'} (and stream shards) at 1,000 each; the second stage was simulated on ${check.simulated}.`;
}

/** The figures as the bench prints them. */
export function formatKeyHeat(result: KeyHeatResult): string {
  const { day } = result;
  return [
    trafficTable(day),
    '',
    windowTable(day),
    ...result.partitions.flatMap(({ target, hottest }) => [sectionHeader(`key-heat: ten hottest partition keys of ${target}`), heatTable(hottest, KEY_BUDGETS.partition, false)]),
    deltaTableLine(result),
    sectionHeader('key-heat: ten hottest items, by writes'),
    heatTable(result.hottestItems, KEY_BUDGETS.item, true),
    sectionHeader('key-heat: ten hottest items, by write units (item size included)'),
    heatTable(result.hottestItemsByUnits, KEY_BUDGETS.item, true),
    sectionHeader('key-heat: per entry lifecycle (request + 8 status changes, and the fold)'),
    lifecycleTable(result.perLifecycle),
    `what the counted seconds wrote, over the ${formatCount(day.lifecycles)} entries they requested. Write units: 1 per KB of the item (attribute names and values),\nthe larger of old and new for a table write; an index write 1 per KB of what the index holds; a counter write what the item weighs then.`,
    sectionHeader('key-heat: counter items at the end of the simulated day (the last window’s end; each brought up to it)'),
    counterSizeTable(result.counters),
    '',
    hottestCounterTable(result),
    sectionHeader('key-heat: one typical lifecycle, computed alone (pending ×4, each field → processing → success; one fold batch, no counter item yet)'),
    lifecycleTable(result.single),
  ].join('\n');
}

/** The hottest partition key over the table, every index and the counters, by writes and by write units. */
function hottestPartitions(result: KeyHeatResult): { readonly byWrites: Heat | undefined; readonly byUnits: Heat | undefined } {
  const byWrites = result.partitions.flatMap(({ hottest }) => hottest.slice(0, 1)).sort((a, b) => b.peak - a.peak)[0];
  const byUnits = result.partitions.flatMap(({ hottestByUnits }) => hottestByUnits.slice(0, 1)).sort((a, b) => b.peakUnits - a.peakUnits)[0];
  return { byWrites, byUnits };
}

/** The write units per lifecycle a target is checked on, the parts shown beside it, and what it is when not the counted seconds' mean. */
export interface LifecycleFigure {
  readonly units: number;
  readonly parts: LifecycleWrites;
  readonly note?: string;
}

/**
 * The summary lines (DESIGN.md 9): no partition key over 500 writes/s or 500 write units/s, no
 * item over 100 writes/s or 500 write units/s, ≤ 40 write units per lifecycle. `label` names a
 * run among several (the shard counts of key-heat-shards.ts), and `lifecycle` the figure checked
 * (by default the counted seconds' mean; the sweep's is the day's, key-heat-shards.ts).
 */
export function keyHeatTargets(result: KeyHeatResult, label = 'key-heat', lifecycle: LifecycleFigure = { units: result.perLifecycle.total.units, parts: result.perLifecycle }): TargetResult[] {
  const partition = hottestPartitions(result);
  const item = result.hottestItems[0];
  const heavyItem = result.hottestItemsByUnits[0];
  const life = lifecycle.parts;
  return [
    { bench: `${label}: hottest partition key (table, every index, counters)`, target: `≤ ${PARTITION_BUDGET} writes/s`, measured: `${perSecond(partition.byWrites)} ${where(partition.byWrites)}`, pass: (partition.byWrites?.peak ?? 0) <= PARTITION_BUDGET },
    { bench: `${label}: hottest partition key by write units`, target: `≤ ${UNITS_BUDGET} WCU/s`, measured: `${unitsPerSecond(partition.byUnits)} ${where(partition.byUnits)}`, pass: (partition.byUnits?.peakUnits ?? 0) <= UNITS_BUDGET },
    { bench: `${label}: hottest item`, target: `≤ ${ITEM_BUDGET} writes/s`, measured: `${perSecond(item)} ${where(item)}`, pass: (item?.peak ?? 0) <= ITEM_BUDGET },
    { bench: `${label}: hottest item by write units`, target: `≤ ${UNITS_BUDGET} WCU/s`, measured: `${unitsPerSecond(heavyItem)} ${where(heavyItem)}`, pass: (heavyItem?.peakUnits ?? 0) <= UNITS_BUDGET },
    {
      bench: `${label}: write units per entry lifecycle`,
      target: `≤ ${LIFECYCLE_BUDGET}`,
      measured: `${units(lifecycle.units)} (${lifecycle.note ? `${lifecycle.note}; ` : ''}table ${units(life.table.units)}, indexes ${units(life.indexes.units)}, deltas ${units(life.deltas.units)}, counters ${units(life.counters.units)}; one typical lifecycle alone ${units(result.single.total.units)})`,
      pass: lifecycle.units <= LIFECYCLE_BUDGET,
    },
  ];
}
