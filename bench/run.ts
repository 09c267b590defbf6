/**
 * `npm run bench`: every benchmark in turn, each figure a ratio against a baseline measured in the
 * same run, then a summary of target against measured. Benchmarks that need DynamoDB and S3 share
 * one set of in-memory local backends, started here and stopped at the end, even on failure.
 *
 *   npm run bench -- [--quick] [--only bundles,cold-start,observability,overhead,idempotency,load,users,media-log,import,recount,lifecycle,avatars,key-heat,key-heat-shards,live]
 *
 * `--quick` uses smaller sizes (10k users, 5 s of load, 3 cold-start rounds, 10 s of the key-heat
 * day) for a fast check. `key-heat` is a simulation: it needs no backend, and `--only key-heat`
 * starts none; `live` is a simulation too, then a local measurement on the backends. The media log and avatar benchmarks run when their modules exist; a module that
 * returns `{ targets: TargetResult[] }` adds those lines to the summary. Missed targets are
 * reported, not failed: the exit code is 1 only when a benchmark could not run.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Writable } from 'node:stream';
import { sendLocalTelemetryTo } from '../functions/shared/observability/telemetry-output';
import { startBackends, type LocalBackends } from '../local/backends';
import { useLocalEnvironment } from '../local/environment';
import type { LocalSigningKey } from '../local/signing-key';
import { benchBundleSizes, bundleSizeTargets, formatBundleSizes } from './bundle-size';
import { benchColdStart, coldStartTargets, formatColdStart } from './cold-start';
import { benchObservabilityCost, formatObservabilityCost, observabilityCostTargets } from './observability-cost';
import { benchGatewayLoad, formatGatewayLoad, gatewayLoadTargets } from './gateway-load';
import { benchHandlerOverhead, formatHandlerOverhead, handlerOverheadTargets } from './handler-overhead';
import { benchIdempotencyCost, formatIdempotencyCost, idempotencyCostTargets } from './idempotency-cost';
import { benchKeyHeat, formatKeyHeat, keyHeatTargets } from './key-heat';
import { benchLive, formatLive, liveLatencyTargets, liveTargets, formatLiveLatency } from './live';
import { benchLiveLatency } from './live-latency';
import { DAY_PLANS } from './key-heat-day';
import { benchKeyHeatShards, formatKeyHeatShards, keyHeatShardsTargets, SHARD_SCENARIOS } from './key-heat-shards';
import { benchLifecycleCost, formatLifecycleCost, lifecycleCostTargets } from './lifecycle-cost';
import { benchMediaLogImport, formatMediaLogImport } from './media-log-import';
import { benchMediaLogRecount, formatMediaLogRecount } from './media-log-recount';
import { formatSummary, formatTable, sectionHeader, type TargetResult } from './report';
import { benchUserListing, formatUserListing, userListingTargets } from './user-listing';

const BENCHES = ['bundles', 'cold-start', 'observability', 'overhead', 'idempotency', 'load', 'users', 'media-log', 'import', 'recount', 'lifecycle', 'avatars', 'key-heat', 'key-heat-shards', 'live'] as const;
type BenchName = (typeof BENCHES)[number];

/** Sizes of a run: the full one, and `--quick`. */
const SIZES = {
  full: { coldStartRounds: 15, overheadWarmup: 200, overheadSamples: 1000, loadSeconds: 10, loadWarmupSeconds: 10, users: 100_000, listingSamples: 30, mediaLog: {}, importEntries: 100_000, feedEntries: 2000, recountSizes: [100_000, 1_000_000], keyHeatDay: DAY_PLANS.full, keyHeatShards: SHARD_SCENARIOS, liveSeconds: 60, liveLatencySeconds: 30 },
  quick: { coldStartRounds: 3, overheadWarmup: 50, overheadSamples: 200, loadSeconds: 5, loadWarmupSeconds: 5, users: 10_000, listingSamples: 10, mediaLog: { sizes: [10_000, 100_000], samples: 10 }, importEntries: 5000, feedEntries: 1000, recountSizes: [10_000, 50_000], keyHeatDay: DAY_PLANS.quick, keyHeatShards: SHARD_SCENARIOS.slice(0, 2), liveSeconds: 10, liveLatencySeconds: 10 },
} as const;

type Sizes = (typeof SIZES)[keyof typeof SIZES];

class UsageError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

function parseArguments(argv: readonly string[]): { only: ReadonlySet<BenchName>; quick: boolean } {
  let only: Set<BenchName> = new Set(BENCHES);
  let quick = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (argument === '--quick') quick = true;
    else if (argument === '--only' || argument.startsWith('--only=')) {
      const value = argument === '--only' ? argv[(index += 1)] : argument.slice('--only='.length);
      const names = (value ?? '').split(',').map((name) => name.trim()).filter(Boolean);
      const unknown = names.filter((name) => !(BENCHES as readonly string[]).includes(name));
      if (names.length === 0 || unknown.length > 0) throw new UsageError(`--only takes a comma-separated list of ${BENCHES.join(', ')}${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}.`);
      only = new Set(names as BenchName[]);
    } else throw new UsageError(`unknown argument ${argument}; usage: npm run bench -- [--quick] [--only ${BENCHES.join(',')}]`);
  }
  return { only, quick };
}

/**
 * Request logs stay on (at the deployed level, so their cost is in the figures) but go nowhere:
 * thousands of lines would bury the tables. Error lines are kept and printed at the end.
 */
function discardRequestLogs(): string[] {
  const errors: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = chunk.toString('utf8');
      if (errors.length < 5 && line.includes('"level":"ERROR"')) errors.push(line.trim());
      done();
    },
  });
  sendLocalTelemetryTo(sink);
  return errors;
}

/** The backends the data benchmarks share, started on first use. */
class BenchBackends {
  private started: { readonly backends: LocalBackends; readonly dataDir: string; key: LocalSigningKey | null } | undefined;

  /** Start the backends (once) and point this process at them; returns the local signing key. */
  public async key(): Promise<LocalSigningKey> {
    if (!this.started) {
      // Always our own, in memory: endpoints or an external issuer from the shell would make the
      // figures incomparable (and could point at a remote service).
      for (const variable of ['DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'AUTH_ISSUER', 'AUTH_JWKS_URL', 'AUTH_AUDIENCE']) delete process.env[variable];
      const dataDir = await mkdtemp(join(tmpdir(), 'frontend-api-bench-'));
      this.started = { backends: await startBackends({ dataDir, inMemory: true }), dataDir, key: null };
      this.started.key = await useLocalEnvironment(dataDir, this.started.backends);
    }
    if (!this.started.key) throw new Error('The local signing key is not in use.');
    return this.started.key;
  }

  /** Stop what {@link key} started and remove its data directory. */
  public async stop(): Promise<void> {
    if (!this.started) return;
    const { backends, dataDir } = this.started;
    this.started = undefined;
    await backends.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What a benchmark section prints (null: it printed already), and its summary lines. */
interface SectionOutcome {
  readonly text: string | null;
  readonly targets: readonly TargetResult[];
}

/** Print a result of a module this runner does not know the shape of. */
function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  const rows = Array.isArray(value) ? value : (value as { rows?: unknown })?.rows;
  if (Array.isArray(rows) && rows.every((row) => row !== null && typeof row === 'object')) {
    const headers = [...new Set(rows.flatMap((row) => Object.keys(row as object)))];
    return formatTable(headers, rows.map((row) => headers.map((header) => {
      const cell = (row as Record<string, unknown>)[header];
      return typeof cell === 'number' ? Number(cell.toFixed(3)) : typeof cell === 'string' ? cell : JSON.stringify(cell) ?? '';
    })));
  }
  return JSON.stringify(value, null, 2);
}

/**
 * Run the `preferred` export (or the first `bench…` function) of an optional benchmark module. It
 * gets a `print` option for its tables; when it prints nothing, its result is shown.
 */
async function optionalBench(file: string, preferred: string, options: Record<string, unknown>): Promise<SectionOutcome> {
  const path = join(fileURLToPath(new URL('.', import.meta.url)), file);
  if (!existsSync(path)) return { text: `not available: bench/${file} does not exist yet`, targets: [] };
  const module = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
  const name = typeof module[preferred] === 'function' ? preferred : Object.keys(module).find((key) => key.startsWith('bench') && typeof module[key] === 'function');
  if (name === undefined) return { text: `not available: bench/${file} exports no bench function`, targets: [] };
  let printed = false;
  const print = (text: string) => {
    printed = true;
    console.log(text);
  };
  const value = await (module[name] as (options: Record<string, unknown>) => unknown)({ ...options, print });
  const targets = (value as { targets?: TargetResult[] } | null)?.targets;
  return { text: printed ? null : describe(value), targets: Array.isArray(targets) ? targets : [] };
}

async function runSection(name: BenchName, sizes: Sizes, quick: boolean, backends: BenchBackends): Promise<SectionOutcome> {
  switch (name) {
    case 'bundles': {
      const rows = await benchBundleSizes();
      return { text: formatBundleSizes(rows), targets: bundleSizeTargets(rows) };
    }
    case 'cold-start': {
      const result = await benchColdStart({ rounds: sizes.coldStartRounds });
      return { text: formatColdStart(result), targets: coldStartTargets(result) };
    }
    case 'observability': {
      const result = await benchObservabilityCost({ rounds: sizes.coldStartRounds });
      return { text: formatObservabilityCost(result), targets: observabilityCostTargets(result) };
    }
    case 'overhead': {
      await backends.key();
      const rows = await benchHandlerOverhead({ warmup: sizes.overheadWarmup, measured: { iterations: sizes.overheadSamples, maxMs: 60_000 } });
      return { text: formatHandlerOverhead(rows), targets: handlerOverheadTargets(rows) };
    }
    case 'idempotency': {
      await backends.key();
      const measured = { iterations: sizes.overheadSamples / 2, maxMs: 60_000 };
      const result = await benchIdempotencyCost({ warmup: sizes.overheadWarmup / 5, measured, rounds: sizes.coldStartRounds });
      return { text: formatIdempotencyCost(result), targets: idempotencyCostTargets(result) };
    }
    case 'load': {
      const result = await benchGatewayLoad(await backends.key(), { connections: 100, durationSeconds: sizes.loadSeconds, warmupSeconds: sizes.loadWarmupSeconds });
      return { text: formatGatewayLoad(result), targets: gatewayLoadTargets(result) };
    }
    case 'users': {
      await backends.key();
      const result = await benchUserListing({ users: sizes.users, maxSeedMs: 20 * 60_000, samples: { iterations: sizes.listingSamples, maxMs: 30_000 } });
      return { text: formatUserListing(result), targets: userListingTargets(result) };
    }
    case 'media-log':
      // It starts its own DynamoDB Local, sized for its millions of entries.
      return optionalBench('media-log.ts', 'benchMediaLog', { quick, ...sizes.mediaLog });
    case 'import': {
      await backends.key();
      const result = await benchMediaLogImport({ entries: sizes.importEntries, feedEntries: sizes.feedEntries });
      return { text: formatMediaLogImport(result), targets: result.targets };
    }
    case 'recount': {
      await backends.key();
      const result = await benchMediaLogRecount({ sizes: sizes.recountSizes });
      return { text: formatMediaLogRecount(result), targets: result.targets };
    }
    case 'lifecycle': {
      await backends.key();
      const comparisons = await benchLifecycleCost();
      return { text: formatLifecycleCost(comparisons), targets: lifecycleCostTargets(comparisons) };
    }
    case 'avatars':
      return optionalBench('avatar-pipeline.ts', 'benchAvatarPipeline', { quick });
    case 'key-heat': {
      // A simulation of the write path through the product's builders: no backend to start.
      const result = benchKeyHeat({ plan: sizes.keyHeatDay });
      return { text: formatKeyHeat(result), targets: keyHeatTargets(result) };
    }
    case 'key-heat-shards': {
      // The same simulation at the stream shard counts the table grows into (--quick: the first two).
      const runs = benchKeyHeatShards(sizes.keyHeatShards);
      return { text: formatKeyHeatShards(runs), targets: keyHeatShardsTargets(runs) };
    }
    case 'live': {
      // A simulation at the design rate through the notifier, then 100 connections measured locally.
      const scenarios = await benchLive({ seconds: sizes.liveSeconds });
      console.log(formatLive(scenarios));
      const latency = await benchLiveLatency(await backends.key(), { seconds: sizes.liveLatencySeconds });
      return { text: formatLiveLatency(latency), targets: [...liveTargets(scenarios), ...liveLatencyTargets(latency)] };
    }
  }
}

const TITLES: Record<BenchName, string> = {
  bundles: "Bundles: each function's closure and size against its floor (only the AWS SDK clients it uses)",
  'cold-start': 'Cold start: init as the Lambda runtime loads each bundle, against its floor in the same rounds',
  observability: 'Tracing: bundle size and init with and without Powertools Tracer',
  overhead: 'Handler overhead: warm handler vs the raw DynamoDB calls it makes',
  idempotency: 'Idempotency-Key: what a key costs a request, and what key support adds to each keyed function',
  load: 'Local gateway under load vs a bare node http server',
  users: 'User listing: items read per item returned',
  'media-log': 'Media log listing',
  import: 'Media log writes: the import and the feed, counted by the fold, against their floors',
  recount: 'Media log recount at size: speed against two bare scans of the entries, and the heap it holds',
  lifecycle: 'Write units of one entry lifecycle on DynamoDB Local, beside what key-heat computes for it',
  avatars: 'Avatar pipeline vs bare sharp',
  'key-heat': 'Key heat over a simulated day at 2,000 entries/s: writes per partition key and item, write units per entry lifecycle',
  'key-heat-shards': 'Key heat as the stream grows: the day at 18, 300, 900 and 3,600 stream shards, hottest keys and items in writes/s and write units/s',
  live: 'Live media log: messages, @connections calls, registry reads and a day\'s cost at 0, 100 and 10,000 watchers; change-to-browser delay locally',
};

async function main(): Promise<number> {
  const { only, quick } = parseArguments(process.argv.slice(2));
  process.env.AWS_REGION ||= 'us-east-1';
  const loggedErrors = discardRequestLogs();
  const sizes = quick ? SIZES.quick : SIZES.full;
  const backends = new BenchBackends();
  const summary: TargetResult[] = [];
  let crashed = 0;
  console.log(`Frontend API benchmarks${quick ? ' (--quick)' : ''}: ${BENCHES.filter((name) => only.has(name)).join(', ')}`);
  try {
    for (const name of BENCHES.filter((bench) => only.has(bench))) {
      console.log(sectionHeader(TITLES[name]));
      try {
        const outcome = await runSection(name, sizes, quick, backends);
        if (outcome.text !== null) console.log(outcome.text);
        summary.push(...outcome.targets);
      } catch (error) {
        crashed += 1;
        console.log(`could not run: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
        summary.push({ bench: TITLES[name], target: 'runs', measured: 'error (see its section)', pass: false });
      }
    }
  } finally {
    await backends.stop();
  }
  console.log(sectionHeader('Summary: target vs measured'));
  console.log(summary.length ? formatSummary(summary) : 'no targets measured');
  if (loggedErrors.length) console.log(`\nerror log lines during the run (first ${loggedErrors.length}):\n${loggedErrors.join('\n')}`);
  return crashed === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof UsageError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = error instanceof UsageError ? 2 : 1;
  },
);
