import { WEBSOCKET_QUOTAS } from '../functions/live/model/live-limits';
import { FUNCTION_SIZES } from '../lib/constructs/service-function';
import { tableWritesPerSecond } from './key-heat-day';
import { streamShards } from './key-heat-stream';
import { PIPELINE_TRAFFIC } from './key-heat-traffic';
import { dailyCost, US_EAST_1_PRICES, type DailyUsage } from './live-prices';
import { simulateLive, type ScenarioTally } from './live-simulation';
import { formatCount, formatMs, formatTable, type TargetResult } from './report';
import type { LiveLatency } from './live-latency';

/**
 * `live` (DESIGN.md 7c and 9): what the live media log costs at the design rate with 0, 100 and
 * 10,000 watchers (a quarter each users, sub users, admins watching everything, admins watching the
 * failures), simulated through the product's notifier (live-simulation.ts): messages and
 * `@connections` calls per second, registry reads per second, and a day's cost at AWS's us-east-1
 * list prices (live-prices.ts), beside publishing every change to every watcher. Its second part
 * (live-latency.ts) measures, locally, how long a change takes to reach 100 subscribed connections.
 */

/** What a scenario costs, and uses, per second and per day. */
export interface LiveScenario {
  readonly tally: ScenarioTally;
  readonly perSecond: { readonly changes: number; readonly candidates: number; readonly entries: number; readonly overflows: number; readonly posts: number; readonly registryReads: number };
  readonly usage: DailyUsage;
  readonly cost: ReturnType<typeof dailyCost>;
  /** Messages a day if every change went to every watcher, and their cost. */
  readonly everything: { readonly messagesPerSecond: number; readonly cost: number };
}

/** Assumptions of the day's prices that the simulation cannot measure. */
export const COST_ASSUMPTIONS = {
  /** A PostToConnection takes this long (the notifier keeps 32 in flight). */
  postMs: 20,
  /** How long a watcher keeps a connection: API Gateway's two hours, the longest. */
  sessionHours: WEBSOCKET_QUOTAS.connectionSeconds / 3600,
  /** Write units of one session: ticket put and take (2), connect and subscribe transactions (2 items × 2 each, twice), disconnect (3). */
  sessionWriteUnits: 2 + 8 + 3,
  /** A registry item (a connection and its subscription) as the full read reads it, in KB. */
  registryItemKb: 0.6,
  fullReadEverySeconds: 600,
} as const;

const DAY = 86_400;

/** A scenario's day: its meters from the simulated seconds, and their price. */
function priced(tally: ScenarioTally): LiveScenario {
  const per = (value: number) => value / tally.seconds;
  const posts = per(tally.entryMessages + tally.overflowMessages);
  const batchesPerSecond = per(tally.batches);
  const secondsPerBatch = (tally.computeMs + tally.heldMs + (posts * tally.seconds * COST_ASSUMPTIONS.postMs) / 32) / 1000 / Math.max(1, tally.batches);
  const sessionsPerDay = (tally.watchers * 24) / COST_ASSUMPTIONS.sessionHours;
  const fullReadUnits = Math.max(0.5, Math.ceil((tally.watchers * COST_ASSUMPTIONS.registryItemKb) / 4) * 0.5);
  const usage: DailyUsage = {
    messages: posts * DAY,
    connectionMinutes: tally.watchers * 24 * 60,
    lambdaRequests: batchesPerSecond * DAY + sessionsPerDay * 3,
    lambdaGbSeconds: batchesPerSecond * DAY * secondsPerBatch * (FUNCTION_SIZES.standard.memorySize / 1024),
    // A journal read is strongly consistent: at least one unit; a full read now and then instead.
    readUnits: per(tally.registryReads) * DAY + (tally.shards * DAY * fullReadUnits) / COST_ASSUMPTIONS.fullReadEverySeconds,
    writeUnits: per(tally.heartbeats) * DAY + sessionsPerDay * COST_ASSUMPTIONS.sessionWriteUnits,
  };
  const everything = tally.watchers * per(tally.changes);
  return {
    tally,
    perSecond: { changes: per(tally.changes), candidates: per(tally.candidates), entries: per(tally.entryMessages), overflows: per(tally.overflowMessages), posts, registryReads: per(tally.registryReads) },
    usage,
    cost: dailyCost(usage),
    everything: { messagesPerSecond: everything, cost: dailyCost({ ...usage, messages: everything * DAY }).total },
  };
}

/** Options of {@link benchLive}. */
export interface LiveBenchOptions {
  readonly seconds?: number;
  readonly warmupSeconds?: number;
  readonly watcherCounts?: readonly number[];
}

/** Run the simulation at the design rate. */
export async function benchLive(options: LiveBenchOptions = {}): Promise<LiveScenario[]> {
  const shards = streamShards(tableWritesPerSecond(PIPELINE_TRAFFIC));
  const tallies = await simulateLive({
    traffic: PIPELINE_TRAFFIC,
    shards,
    watcherCounts: options.watcherCounts ?? [0, 100, 10_000],
    // A request's changes come within a minute: a minute of warm-up fills the pipeline.
    warmupSeconds: options.warmupSeconds ?? 60,
    seconds: options.seconds ?? 60,
  });
  return tallies.map(priced);
}

const dollars = (value: number) => `$${value < 10 ? value.toFixed(2) : formatCount(Math.round(value))}`;

/** The tables of the simulation. */
export function formatLive(scenarios: readonly LiveScenario[]): string {
  const [first] = scenarios;
  const header = first === undefined ? '' : `${first.tally.shards} stream shards, ${formatCount(Math.round(first.perSecond.changes))} changes/s, ${first.tally.seconds} s counted after a warm-up`;
  const flows = formatTable(
    ['watchers', 'matched/s', 'entry msgs/s', 'overflow msgs/s', '@connections calls/s', 'registry reads/s', 'per shard (busiest s)', 'every change to every watcher, msgs/s'],
    scenarios.map(({ tally, perSecond, everything }) => [
      formatCount(tally.watchers),
      formatCount(Math.round(perSecond.candidates)),
      formatCount(Math.round(perSecond.entries)),
      formatCount(Math.round(perSecond.overflows)),
      formatCount(Math.round(perSecond.posts)),
      perSecond.registryReads.toFixed(1),
      `${(perSecond.registryReads / tally.shards).toFixed(2)} (${tally.busiestShardSecond})`,
      formatCount(Math.round(everything.messagesPerSecond)),
    ]),
  );
  const costs = formatTable(
    ['watchers', 'messages $/day', 'connection min $/day', 'Lambda $/day', 'DynamoDB $/day', 'total $/day', 'per watcher-hour', 'every change to every watcher $/day'],
    scenarios.map(({ tally, cost, everything }) => [
      formatCount(tally.watchers),
      dollars(cost.messages),
      dollars(cost.connections),
      dollars(cost.lambda),
      dollars(cost.dynamodb),
      dollars(cost.total),
      tally.watchers === 0 ? '-' : `$${(cost.total / tally.watchers / 24).toFixed(5)}`,
      dollars(everything.cost),
    ]),
  );
  const busiest = scenarios.at(-1);
  const kinds =
    busiest === undefined || busiest.tally.watchers === 0
      ? ''
      : `\n\nBy kind of watcher (${formatCount(busiest.tally.watchers)} watchers), messages a second each and their price an hour:\n\n${formatTable(
          ['kind', 'watchers', 'msgs/s each', 'messages $/watcher-hour'],
          Object.entries(busiest.tally.byKind).map(([kind, { watchers, messages }]) => {
            const each = watchers === 0 ? 0 : messages / busiest.tally.seconds / watchers;
            return [kind, formatCount(watchers), each.toFixed(2), `$${(each * 3600 * US_EAST_1_PRICES.webSocketMessage).toFixed(4)}`];
          }),
        )}`;
  return `${header}\n\n${flows}\n\nA day at AWS's us-east-1 list prices (live-prices.ts; ${COST_ASSUMPTIONS.postMs} ms a post and 2-hour sessions assumed):\n\n${costs}${kinds}`;
}

/** The targets of DESIGN.md 9 the simulation checks. */
export function liveTargets(scenarios: readonly LiveScenario[]): TargetResult[] {
  const bench = 'live';
  return scenarios.flatMap(({ tally, perSecond }) => [
    { bench, target: `${formatCount(tally.watchers)} watchers: ≤ 1 registry read/s per shard`, measured: `${tally.busiestShardSecond} in its busiest second`, pass: tally.busiestShardSecond <= 1 },
    tally.watchers === 0
      ? { bench, target: 'no watcher: 0 posts', measured: `${formatCount(Math.round(perSecond.posts))}/s`, pass: perSecond.posts === 0 }
      : { bench, target: `${formatCount(tally.watchers)} watchers: entry messages ≤ what their filters match`, measured: `${formatCount(Math.round(perSecond.entries))}/s of ${formatCount(Math.round(perSecond.candidates))}/s matched`, pass: perSecond.entries <= perSecond.candidates },
  ]);
}

/** The local measurement's table. */
export function formatLiveLatency(latency: LiveLatency): string {
  return `\nLocally (npm start's stack in this process), ${latency.connections} connections each subscribed to its user's entries, the feed running:\n\n${formatTable(
    ['connections', 'changes fed', 'messages', 'p50', 'p95', 'max', 'entries whose last state was lost'],
    [[latency.connections, formatCount(latency.changes), formatCount(latency.messages), formatMs(latency.p50Ms), formatMs(latency.p95Ms), formatMs(latency.maxMs), latency.lost]],
  )}`;
}

/** Targets of the local measurement (DESIGN.md 9). */
export function liveLatencyTargets(latency: LiveLatency): TargetResult[] {
  return [
    { bench: 'live', target: `change to browser, ${latency.connections} connections: p95 ≤ 2 s`, measured: formatMs(latency.p95Ms), pass: latency.p95Ms <= 2000 },
    { bench: 'live', target: 'nothing lost: every watcher has every entry\'s last state', measured: `${latency.lost} lost`, pass: latency.lost === 0 },
  ];
}
