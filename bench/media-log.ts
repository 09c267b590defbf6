/**
 * Media log listings at scale: seeds the log to each size (100k, then 1M entries by default, over
 * the same year, so the log gets 10× denser) and measures every listing and filter combination in
 * DynamoDB's own read units, as AWS bills them (DynamoDB Local's consumed capacity, with a read that
 * finds nothing at AWS's minimum: functions/shared/observability/read-meter.ts), beside the items
 * read per item returned (index items and entries read by key; counter items apart), how often the
 * total was exact, and p50/p95 latency through the route's handler. Targets (DESIGN.md section 9,
 * restated in round five): a common listing's page ≤ 2 read units per item returned; a url page ≤
 * 40 read units whatever its matches; no page of any listing over the request's budget (200);
 * p95 flat as the log grows 10×. Runs its own DynamoDB Local.
 * Alone: `npx tsx bench/media-log.ts --sizes 100000,1000000`.
 */
import { tableName } from '../functions/shared/config/data-config';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand } from '@aws-sdk/client-dynamodb';
import { MemoryCheckpoints } from '../local/fold/checkpoints';
import { foldPendingChanges, LocalMediaLogFold, memoryCheckpoints } from '../local/fold/media-log-fold';
import { resetConfiguration } from '../functions/shared/config/define-config';
import { resetEveryLazy } from '../functions/shared/lazy';
import { userRepository } from '../local/tool-composition';
import { registerUser } from '../functions/users/user-registration';
import { applyLocalDefaults } from '../local/local-defaults';
import { AVATAR_ENV } from '../functions/avatars/avatar-config';
import { writeMediaLogEntries } from '../functions/media-log/feed/import-changes';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { createDynamoDbClient, resetClients } from '../functions/shared/aws/clients';
import { logger } from '../functions/shared/logger';
import { tables } from '../functions/shared/tables';
import { createTableInput, startDynamoDbLocal } from '../local/backends/index';
import { measurePatterns, type MeasureContext, type PatternResult } from './media-log-measure';
import { FAMILY_SUBS, POPULAR_REQUESTS, POPULAR_URL, SPAN_MS, SPAN_START } from './media-log-patterns';
import { formatMediaLogResults, mediaLogTargets, type SeedingResult } from './media-log-report';
import { formatCount, formatSummary, progressBar, progressOf, timed, type TargetResult } from './report';

/** Options of {@link benchMediaLog}. */
export interface MediaLogBenchOptions {
  /** Log sizes to measure, ascending (default 100k and 1M). */
  readonly sizes?: readonly number[];
  /** Owners of the entries (default 1,000 users). */
  readonly users?: number;
  /** Measured requests per pattern and size (default 40). */
  readonly samples?: number;
  /** Where the figures go (default stdout). */
  readonly print?: (text: string) => void;
}


/** Everything the media log bench measured. */
export interface MediaLogBenchResult {
  readonly seeding: SeedingResult[];
  readonly patterns: PatternResult[];
  readonly targets: TargetResult[];
}


/** Forget configuration, clients and services: the bench switches the process to its own back-end and back. */
function resetBenchState(): void {
  resetConfiguration();
  resetClients();
  resetEveryLazy();
}

async function startLog(): Promise<{ readonly callers: MeasureContext['callers']; stop(): Promise<void> }> {
  // In memory, with the full compiler (not the quick start `npm start` uses): bulk-loading 6,000
  // entries took 36 s, against 58 s with its files on a RAM disk (where 40% of the CPU went to the
  // kernel). A million entries and their counters need a few GB of memory.
  const dynamodb = await startDynamoDbLocal({ inMemory: true, compiler: 'full' });
  const previous = { endpoint: process.env.DYNAMODB_ENDPOINT, key: process.env.AWS_ACCESS_KEY_ID };
  process.env.DYNAMODB_ENDPOINT = dynamodb.endpoint;
  process.env.AWS_ACCESS_KEY_ID = 'bench';
  applyLocalDefaults(process.env);
  // No avatar is stored or served here, but the users feature needs a base for their URLs.
  process.env[AVATAR_ENV.publicBaseUrl] ||= 'http://127.0.0.1:9/avatars';
  resetBenchState();
  const admin = createDynamoDbClient({ region: 'us-east-1', endpoint: dynamodb.endpoint, accessKey: { id: 'bench', secret: 'local' } });
  for (const definition of tables) await admin.send(new CreateTableCommand(createTableInput(definition, tableName(definition))));
  admin.destroy();
  // The listings run as a real root user: every route reads its caller as stored.
  const root = await registerUser(userRepository(), { email: 'root@bench.example', role: 'root' });
  // An admin sees every entry but root users': the root user (id 1) is the heaviest sender of the sample.
  const adminUser = await registerUser(userRepository(), { email: 'admin@bench.example', role: 'admin' });
  // A parent whose sub users take the next ids: the owners of nearly every entry of the sample are its family.
  const parent = await registerUser(userRepository(), { email: 'parent@bench.example', role: 'user' });
  for (let index = 0; index < FAMILY_SUBS; index += 1) await registerUser(userRepository(), { email: `sub-${index}@bench.example`, role: 'sub', parent: parent.id });
  return {
    callers: {
      root: { userId: root.id, role: 'root', parentId: null },
      admin: { userId: adminUser.id, role: 'admin', parentId: null },
      family: { userId: parent.id, role: 'user', parentId: null },
    },
    async stop() {
      resetBenchState();
      process.env.DYNAMODB_ENDPOINT = previous.endpoint ?? '';
      process.env.AWS_ACCESS_KEY_ID = previous.key ?? '';
      await dynamodb.stop();
    },
  };
}

/** Seed `entries` as an import does: the batched writer, then the fold of what it stored. */
async function seed(size: number, entries: readonly MediaLogEntry[]): Promise<SeedingResult> {
  const bar = progressBar(`seeding ${formatCount(size)}`, entries.length);
  const started = performance.now();
  const written = await timed(() => writeMediaLogEntries(entries, { onProgress: progressOf(bar) }));
  bar.stop();
  const folded = await timed(() => foldPendingChanges(FOLD_CHECKPOINTS));
  const seconds = (performance.now() - started) / 1000;
  return { size, writeSeconds: Math.round(written.ms / 1000), foldSeconds: Math.round(folded.ms / 1000), perSecond: Math.round(entries.length / seconds), seconds: Math.round(seconds) };
}

/** Where the seeding's fold has read the stream to, shared with the fold that polls while the listings are measured. */
const FOLD_CHECKPOINTS = memoryCheckpoints();

/**
 * Measure every pattern with the fold polling the stream four times a second, as `npm start` runs
 * it: its polls must not slow the listings down as the log grows (they once called DescribeTable,
 * which DynamoDB Local answers by walking the table).
 */
async function measure(size: number, samples: number, context: MeasureContext): Promise<PatternResult[]> {
  const fold = new LocalMediaLogFold(FOLD_CHECKPOINTS);
  fold.start((error) => {
    throw error;
  });
  try {
    return await measurePatterns(size, samples, context);
  } finally {
    await fold.stop();
  }
}

/** Seed the log to each size and measure every listing pattern; prints the tables and returns the figures. */
export async function benchMediaLog(options: MediaLogBenchOptions = {}): Promise<MediaLogBenchResult> {
  const sizes = [...(options.sizes ?? [100_000, 1_000_000])].sort((a, b) => a - b);
  const users = options.users ?? 1000;
  const print = options.print ?? ((text: string) => console.log(text));
  const userIds = Array.from({ length: users }, (_, index) => index + 1);
  logger.setLogLevel('WARN');
  const log = await startLog();
  const seeding: SeedingResult[] = [];
  const patterns: PatternResult[] = [];
  const urls: string[] = [];
  const ids: string[] = [];
  try {
    let seeded = 0;
    for (const size of sizes) {
      const sampled = sampleMediaLogEntries(size - seeded - (seeded === 0 ? POPULAR_REQUESTS : 0), { userIds, start: SPAN_START, spanMs: SPAN_MS, seed: size });
      // The popular url's requests, spread over the year by the first size's seeding.
      const popular = seeded === 0 ? sampleMediaLogEntries(POPULAR_REQUESTS, { userIds, start: SPAN_START, spanMs: SPAN_MS, seed: 99 }).map((entry) => ({ ...entry, url: POPULAR_URL })) : [];
      // In time order, as a log grows and as an export of one is: the fold's batches then share their
      // hours' and days' counters, which makes seeding a million entries a matter of minutes, not hours.
      const entries = [...sampled, ...popular].sort((a, b) => (a.send < b.send ? -1 : a.send > b.send ? 1 : 0));
      // The common url pattern picks among the sample's urls (a url requested a few times), not the popular one.
      urls.push(...sampled.slice(0, 1000).map((entry) => entry.url));
      ids.push(...sampled.slice(0, 1000).map((entry) => entry.id));
      seeding.push(await seed(size, entries));
      seeded = size;
      patterns.push(...(await measure(size, options.samples ?? 40, { callers: log.callers, users, urls, ids })));
      print(formatMediaLogResults(seeding.slice(-1), patterns.filter((row) => row.size === size)));
    }
  } finally {
    await log.stop();
  }
  return { seeding, patterns, targets: mediaLogTargets(patterns, sizes) };
}

function sizesArgument(argv: readonly string[]): number[] | undefined {
  const index = argv.indexOf('--sizes');
  if (index < 0) return undefined;
  const sizes = (argv[index + 1] ?? '').split(',').map(Number);
  if (sizes.length === 0 || sizes.some((size) => !Number.isSafeInteger(size) || size < 1)) throw new Error('--sizes takes comma-separated entry counts, e.g. 100000,1000000.');
  return sizes;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await benchMediaLog({ sizes: sizesArgument(process.argv) });
  console.log(`\n${formatSummary(result.targets)}`);
  process.exitCode = result.targets.every((row) => row.pass !== false) ? 0 : 1;
}
