/**
 * `key-heat-shards` (DESIGN.md 7b round five, issue of the ninetieth day): the key-heat day at the
 * stream shard counts the table grows into. DynamoDB Streams has one shard per table partition, and
 * partitions split by size (10 GB) as well as by throughput: at the design rate the table grows
 * ~100 GB a day, so the stream that starts with 18 shards (throughput) has ~300 after a month,
 * ~900 after 90 days and ~3,600 after a year. The fold writes each counter item once per batch of
 * every shard, and keeps each shard's watermark in the item: this section shows what that does to
 * the hottest items, in writes and in write units (their size included), as the shards grow. Each
 * shard count plays two windows: across a rollover (the most watermarks, every shard cutting a
 * batch at once: the heat) and an ordinary moment (what a lifecycle costs almost all day long).
 */
import { formatCount, formatTable, sectionHeader, type TargetResult } from './report';
import { benchKeyHeat, heatTable, KEY_BUDGETS, keyHeatTargets, type CounterFigures, type KeyHeatResult } from './key-heat';
import { DAY_PLANS, DAY_WINDOWS, type DayPlan, type DayRun, type DayWindow } from './key-heat-day';
import { perLifecycle, type LifecycleWrites } from './key-heat-lifecycle';
import type { Heat } from './key-heat-writes';

/** A stream shard count, and when the table reaches it at the design rate. */
export interface ShardScenario {
  readonly shards: number;
  readonly when: string;
}

/** The shard counts of DESIGN.md 7b round five. */
export const SHARD_SCENARIOS: readonly ShardScenario[] = [
  { shards: 18, when: 'day one: one shard per 1,000 writes/s' },
  { shards: 300, when: 'after ~30 days: ~3 TB in 10 GB partitions' },
  { shards: 900, when: 'after ~90 days: ~9 TB' },
  { shards: 3600, when: 'after ~a year: ~36 TB' },
];

/** Most a counter item may grow from the first shard count to the last: it must not grow with the shards. */
const GROWTH_BUDGET = 2;

/** A lifecycle's write units at one shard count: at an ordinary moment, across a rollover, and over the day. */
export interface DayLifecycle {
  /** What almost every second of the day costs. */
  readonly ordinary: LifecycleWrites;
  /** The counted seconds across a rollover: every shard cuts a batch at once, and items take new watermarks. */
  readonly rollover: LifecycleWrites;
  /** Write units over the day: the ordinary cost, and each rollover's surplus spread over the hours to the next. */
  readonly day: number;
}

/**
 * A lifecycle's write units over the day, from the sweep's two windows. A rollover costs more for a
 * few seconds (each shard's last batch, then items written with new watermarks), once every
 * `rolloverMs`: its surplus over ordinary seconds is spread over the lifecycles of that period.
 * The counted seconds hold both stages' cuts at the rollover, but the second stage's batches that
 * follow may end after them: at 3,600 shards the measured surplus adds 0.003 units a lifecycle to
 * the day, and ten times as much would add 0.03. The closed shards' watermarks expire an hour
 * later with one more write per counter item (~1,250 items of ~5 KB per period: under 0.001 units
 * a lifecycle), which this leaves out.
 */
export function dayLifecycle(day: DayRun): DayLifecycle {
  const at = (window: DayWindow): LifecycleWrites => {
    const totals = day.windowTotals[day.plan.windows.indexOf(window)];
    if (totals === undefined) throw new Error(`the plan counts no window at ${window.at}`);
    return perLifecycle(totals, day.traffic.entriesPerSecond * day.plan.countedSeconds);
  };
  const ordinary = at(DAY_WINDOWS.morning);
  const rollover = at(DAY_WINDOWS.rollover);
  const surplus = Math.max(0, rollover.total.units - ordinary.total.units) * day.traffic.entriesPerSecond * day.plan.countedSeconds;
  const lifecyclesPerRollover = (day.traffic.entriesPerSecond * day.stream.rolloverMs) / 1000;
  return { ordinary, rollover, day: ordinary.total.units + surplus / lifecyclesPerRollover };
}

/** The key-heat day at one shard count. */
export interface ShardRun {
  readonly scenario: ShardScenario;
  readonly result: KeyHeatResult;
  readonly largestCounter: CounterFigures;
  readonly lifecycle: DayLifecycle;
  readonly seconds: number;
}

/** `npm run bench -- --only key-heat-shards`: the day at each shard count, one after another. */
export function benchKeyHeatShards(scenarios: readonly ShardScenario[] = SHARD_SCENARIOS, plan: DayPlan = DAY_PLANS.shardSweep): ShardRun[] {
  return scenarios.map((scenario) => {
    const started = performance.now();
    const result = benchKeyHeat({ plan, stream: { shards: scenario.shards } });
    const largestCounter = result.counters.reduce((top, counter) => (counter.bytes > top.bytes ? counter : top));
    return { scenario, result, largestCounter, lifecycle: dayLifecycle(result.day), seconds: (performance.now() - started) / 1000 };
  });
}

/** The ten hottest partition keys of the table, its indexes and the counters together, by write units. */
function hottestPartitionsByUnits(result: KeyHeatResult): Heat[] {
  return result.partitions.flatMap(({ hottestByUnits }) => hottestByUnits).sort((a, b) => b.peakUnits - a.peakUnits).slice(0, 10);
}

const units = (value: number) => Number(value.toFixed(2));

/** The figures as the bench prints them: a summary row per shard count, then each count's hottest keys and items. */
export function formatKeyHeatShards(runs: readonly ShardRun[]): string {
  const summary = formatTable(
    ['stream shards', 'when', 'hottest partition key (writes/s, WCU/s)', 'hottest item (writes/s, WCU/s)', 'largest counter item', 'WCU per lifecycle: day (ordinary second; across a rollover)', 'counters (ordinary)', 'run'],
    runs.map(({ scenario, result, largestCounter, lifecycle, seconds }) => {
      const key = hottestPartitionsByUnits(result)[0];
      const item = result.hottestItemsByUnits[0];
      return [
        formatCount(scenario.shards),
        scenario.when,
        key ? `${key.key}: ${formatCount(key.peak)}, ${formatCount(key.peakUnits)}` : 'n/a',
        item ? `${item.key}: ${formatCount(item.peak)}, ${formatCount(item.peakUnits)}` : 'n/a',
        `${formatCount(largestCounter.bytes)} B, ${formatCount(largestCounter.mostWatermarks)} watermarks (${largestCounter.key})`,
        `${units(lifecycle.day)} (${units(lifecycle.ordinary.total.units)}; ${units(lifecycle.rollover.total.units)})`,
        `${units(lifecycle.ordinary.counters.units)}`,
        `${formatCount(seconds)} s`,
      ];
    }),
  );
  return [
    summary,
    ...runs.flatMap(({ scenario, result }) => [
      sectionHeader(`key-heat at ${formatCount(scenario.shards)} stream shards: ten hottest partition keys (table, every index, counters), by write units`),
      heatTable(hottestPartitionsByUnits(result), KEY_BUDGETS.partition, true),
      sectionHeader(`key-heat at ${formatCount(scenario.shards)} stream shards: ten hottest items, by write units`),
      heatTable(result.hottestItemsByUnits, KEY_BUDGETS.item, true),
    ]),
  ].join('\n');
}

/** Each shard count's targets, and one more: the largest counter item does not grow with the shard count. */
export function keyHeatShardsTargets(runs: readonly ShardRun[]): TargetResult[] {
  const first = runs[0];
  const last = runs[runs.length - 1];
  const growth = first && last ? last.largestCounter.bytes / first.largestCounter.bytes : 1;
  return [
    ...runs.flatMap(({ scenario, result, lifecycle }) => keyHeatTargets(result, `key-heat at ${formatCount(scenario.shards)} shards`, { units: lifecycle.day, parts: lifecycle.ordinary, note: `over the day; ordinary second ${units(lifecycle.ordinary.total.units)}, across a rollover ${units(lifecycle.rollover.total.units)}` })),
    {
      bench: 'key-heat: largest counter item as the stream grows',
      target: `≤ ${GROWTH_BUDGET} × its size at ${formatCount(first?.scenario.shards ?? 0)} shards`,
      measured: `${units(growth)} × (${formatCount(first?.largestCounter.bytes ?? 0)} B → ${formatCount(last?.largestCounter.bytes ?? 0)} B at ${formatCount(last?.scenario.shards ?? 0)} shards)`,
      pass: growth <= GROWTH_BUDGET,
    },
  ];
}
