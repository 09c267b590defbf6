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
import { foldPendingChanges, LocalMediaLogFold } from '../local/fold/media-log-fold';
import { createMediaLogListing, type MediaLogListing } from '../functions/media-log/listing/media-log-listing';
import { LISTING_READ_UNITS } from '../functions/media-log/listing/read-costs';
import { resetConfiguration } from '../functions/shared/config/define-config';
import { resetEveryLazy } from '../functions/shared/lazy';
import { userRepository } from '../local/tool-composition';
import { registerUser } from '../functions/users/user-registration';
import { applyLocalDefaults } from '../local/local-defaults';
import { AVATAR_ENV } from '../functions/avatars/avatar-config';
import { attachReadMeter, itemsReadOf } from '../functions/shared/observability/read-meter';
import { writeMediaLogEntries } from '../functions/media-log/feed/import-changes';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';
import { ListMediaLogQuerySchema } from '../functions/media-log/listing/list-schemas';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { createDynamoDbClient, getDocumentClient, resetClients } from '../functions/shared/aws/clients';
import { toAuthorizerContext } from '../functions/shared/http/caller';
import { decodeQuery } from '../functions/shared/http/query-decoding';
import type { Caller } from '../functions/shared/access/roles';
import { logger } from '../functions/shared/logger';
import { tables } from '../functions/shared/tables';
import { mediaLogCountsTable } from '../functions/shared/tables/media-log-table';
import { createTableInput, startDynamoDbLocal } from '../local/backends/index';
import { runRoute } from '../local/gateway/dispatch';
import { matchRoute } from '../local/gateway/route-matcher';
import { formatCount, formatMs, formatRatio, formatSummary, formatTable, progressBar, progressOf, summarize, timed, type TargetResult } from './report';

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

/** Which targets a listing carries: a common one ≤ 2 read units per item returned, a url's ≤ 40 a page, every one ≤ the request's budget. */
type PatternKind = 'common' | 'common url' | 'url' | 'other';

/** One pattern measured at one size. */
export interface PatternResult {
  readonly size: number;
  readonly pattern: string;
  readonly kind: PatternKind;
  /** Items returned per page (on average). */
  readonly returnedPerPage: number;
  /** Read units per page, as AWS bills them. */
  readonly unitsPerPage: number;
  /** Items read for the page (index items and entries by key; counter items apart) per item returned. */
  readPerReturned: number;
  /** Per page: index items, entries read by key, counter items, items read only to count, DynamoDB requests. */
  readonly indexItemsPerPage: number;
  readonly entriesPerPage: number;
  readonly counterItemsPerPage: number;
  readonly countedPerPage: number;
  readonly requestsPerPage: number;
  /** Share of pages whose total was exact. */
  readonly exactShare: number;
  /** The most read units one page took. */
  readonly maxUnits: number;
  readonly p50: number;
  readonly p95: number;
}

/** How a size was seeded. */
export interface SeedingResult {
  readonly size: number;
  /** Seconds the import's writer took to store the entries, and the fold to count them. */
  readonly writeSeconds: number;
  readonly foldSeconds: number;
  /** Entries stored and counted per second, the whole seeding. */
  readonly perSecond: number;
  readonly seconds: number;
}

/** Everything the media log bench measured. */
export interface MediaLogBenchResult {
  readonly seeding: SeedingResult[];
  readonly patterns: PatternResult[];
  readonly targets: TargetResult[];
}

let ROOT: Caller = { userId: 1, role: 'root', parentId: null };
let ADMIN: Caller = { userId: 2, role: 'admin', parentId: null };

/** Forget configuration, clients and services: the bench switches the process to its own back-end and back. */
function resetBenchState(): void {
  resetConfiguration();
  resetClients();
  resetEveryLazy();
}
const SPAN_START = new Date('2025-01-01T00:00:00Z');
const SPAN_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

/** A seeded source of choices, so both sizes get the same sequence of queries. */
function chooser(seed: number, users: number, urls: readonly string[], ids: readonly string[]) {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const user = () => 1 + Math.floor(random() * users);
  const instant = (offsetMs: number) => new Date(SPAN_START.getTime() + offsetMs).toISOString();
  const window = (days: number) => {
    const from = Math.floor(random() * (SPAN_MS - days * DAY_MS));
    return `send[from]=${instant(from)}&send[to]=${instant(from + days * DAY_MS)}`;
  };
  return {
    user,
    users: (count: number) => [...new Set(Array.from({ length: count * 2 }, user))].slice(0, count).join(','),
    window,
    url: () => encodeURIComponent(urls[Math.floor(random() * urls.length)] as string),
    entry: () => ids[Math.floor(random() * ids.length)] as string,
  };
}

type Chooser = ReturnType<typeof chooser>;

/** A url requested more often than the count budget reads: its page must stay within 40 read units all the same. */
const POPULAR_URL = 'https://media.example.com/videos/trailer-everyone-watches.mp4';
/** Its requests (over the count budget of 2,000). */
const POPULAR_REQUESTS = 2500;

/** A listing measured: its query, whose page it asks (the first, or the second by its cursor), as which caller, and the targets it carries. */
interface Pattern {
  readonly name: string;
  readonly kind: PatternKind;
  readonly query: (choose: Chooser) => string;
  readonly caller?: 'admin';
  readonly cursor?: true;
}

/** Every listing and filter combination the bench knows: the common ones first. */
const PATTERNS: readonly Pattern[] = [
  { name: 'newest first', kind: 'common', query: () => '' },
  { name: 'oldest first', kind: 'common', query: () => 'sort[order]=asc' },
  { name: 'one user', kind: 'common', query: (choose) => `user-id=${choose.user()}` },
  { name: 'five users', kind: 'common', query: (choose) => `user-id=${choose.users(5)}` },
  { name: 'time range (7 days)', kind: 'common', query: (choose) => choose.window(7) },
  { name: 'url', kind: 'common url', query: (choose) => `url=${choose.url()}` },
  { name: `url (${POPULAR_REQUESTS.toLocaleString('en-US')} requests)`, kind: 'url', query: () => `url=${encodeURIComponent(POPULAR_URL)}` },
  // A url with a status filter reads each candidate's entry to know its statuses (the url's index holds none): the request's budget bounds it.
  { name: `url (${POPULAR_REQUESTS.toLocaleString('en-US')}) + status success`, kind: 'other', query: () => `url=${encodeURIComponent(POPULAR_URL)}&status=success` },
  { name: `url (${POPULAR_REQUESTS.toLocaleString('en-US')}) + status error`, kind: 'other', query: () => `url=${encodeURIComponent(POPULAR_URL)}&status=error` },
  { name: 'one entry by id', kind: 'other', query: (choose) => `request=${choose.entry()}` },
  { name: 'status error (an index)', kind: 'other', query: () => 'status=error' },
  { name: 'status pending (in flight, an index)', kind: 'other', query: () => 'status=pending' },
  { name: 'status success (no index)', kind: 'other', query: () => 'status=success' },
  { name: 'status error + ffscan warning,error', kind: 'other', query: () => 'status=error&status-ffscan=warning,error' },
  { name: 'one user + status error', kind: 'other', query: (choose) => `user-id=${choose.user()}&status=error` },
  { name: 'one user + 7 days', kind: 'other', query: (choose) => `user-id=${choose.user()}&${choose.window(7)}` },
  { name: 'five users + status success + 30 days', kind: 'other', query: (choose) => `user-id=${choose.users(5)}&status=success&${choose.window(30)}` },
  { name: 'status error + 30 days', kind: 'other', query: (choose) => `status=error&${choose.window(30)}` },
  { name: 'admin, newest first (root users hidden)', kind: 'other', caller: 'admin', query: () => '' },
  { name: 'admin, 7 days', kind: 'other', caller: 'admin', query: (choose) => choose.window(7) },
  { name: 'page 50', kind: 'other', query: () => 'pagination[page]=50' },
  { name: 'page 100', kind: 'other', query: () => 'pagination[page]=100' },
  { name: 'page 2 by cursor (newest first)', kind: 'other', cursor: true, query: () => '' },
  { name: 'page 2 by cursor (status error)', kind: 'other', cursor: true, query: () => 'status=error' },
];

async function startLog(): Promise<{ stop(): Promise<void> }> {
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
  ROOT = { userId: root.id, role: 'root', parentId: null };
  // An admin sees every entry but root users': the root user (id 1) is the heaviest sender of the sample.
  const adminUser = await registerUser(userRepository(), { email: 'admin@bench.example', role: 'admin' });
  ADMIN = { userId: adminUser.id, role: 'admin', parentId: null };
  return {
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
const FOLD_CHECKPOINTS = new MemoryCheckpoints();

/**
 * Measure every pattern with the fold polling the stream four times a second, as `npm start` runs
 * it: its polls must not slow the listings down as the log grows (they once called DescribeTable,
 * which DynamoDB Local answers by walking the table).
 */
async function measure(size: number, samples: number, users: number, choices: { readonly urls: readonly string[]; readonly ids: readonly string[] }): Promise<PatternResult[]> {
  const fold = new LocalMediaLogFold(FOLD_CHECKPOINTS);
  fold.start((error) => {
    throw error;
  });
  try {
    return await measurePatterns(size, samples, users, choices);
  } finally {
    await fold.stop();
  }
}

/** The raw query of one request of a pattern: the page by cursor when the pattern asks for it (its first page read unmetered). */
async function rawQueryOf(pattern: Pattern, choose: Chooser, listing: MediaLogListing, caller: Caller): Promise<string> {
  const first = [pattern.query(choose), 'pagination[limit]=10'].filter(Boolean).join('&');
  if (pattern.cursor !== true) return first;
  const page = await listing.list(caller, ListMediaLogQuerySchema.parse(decodeQuery(null, Object.fromEntries(new URLSearchParams(first)))));
  return page.pagination.next === null ? first : `${first}&pagination[cursor]=${encodeURIComponent(page.pagination.next)}`;
}

async function measurePatterns(size: number, samples: number, users: number, choices: { readonly urls: readonly string[]; readonly ids: readonly string[] }): Promise<PatternResult[]> {
  const path = `${API_PREFIX}/media/log`;
  const match = matchRoute('GET', path);
  if (!match) throw new Error('The media log route is not in the route table.');
  const results: PatternResult[] = [];
  // The route's own composition, measured on the client the meter watches.
  const listing = createMediaLogListing(getDocumentClient());
  for (const pattern of PATTERNS) {
    const choose = chooser(7, users, choices.urls, choices.ids);
    const caller = pattern.caller === 'admin' ? ADMIN : ROOT;
    const latencies: number[] = [];
    const totals = { units: 0, maxUnits: 0, items: 0, indexItems: 0, entries: 0, counterItems: 0, counted: 0, requests: 0, exact: 0 };
    let returned = 0;
    for (let index = -3; index < samples; index += 1) {
      const rawQuery = await rawQueryOf(pattern, choose, listing, caller);
      const request = { method: 'GET', path, rawQuery, headers: [], body: Buffer.alloc(0), sourceIp: '127.0.0.1' } as const;
      const { ms, value } = await timed(() => runRoute(request, match, { ...toAuthorizerContext(caller) }));
      if (value.statusCode !== 200) throw new Error(`${pattern.name}: ${value.statusCode} ${value.body.toString()}`);
      if (index < 0) continue;
      latencies.push(ms);
      const query = ListMediaLogQuerySchema.parse(decodeQuery(null, Object.fromEntries(new URLSearchParams(rawQuery))));
      const measured = attachReadMeter(getDocumentClient());
      let reply: Awaited<ReturnType<MediaLogListing['list']>>;
      try {
        reply = await listing.list(caller, query);
      } finally {
        measured.detach();
      }
      returned += reply.log.length;
      totals.exact += reply.pagination['total-exact'] ? 1 : 0;
      const tally = measured.tally();
      const counters = tally.byTable[tableName(mediaLogCountsTable)] ?? 0;
      totals.units += tally.billedReadUnits;
      totals.maxUnits = Math.max(totals.maxUnits, tally.billedReadUnits);
      totals.items += itemsReadOf(tally) - counters;
      totals.indexItems += tally.indexItems;
      totals.entries += tally.keyItems;
      totals.counterItems += counters;
      totals.counted += tally.countedItems;
      totals.requests += tally.requests;
    }
    const { p50, p95 } = summarize(latencies);
    results.push({
      size,
      pattern: pattern.name,
      kind: pattern.kind,
      returnedPerPage: returned / samples,
      unitsPerPage: totals.units / samples,
      readPerReturned: totals.items / Math.max(1, returned),
      indexItemsPerPage: totals.indexItems / samples,
      entriesPerPage: totals.entries / samples,
      counterItemsPerPage: totals.counterItems / samples,
      countedPerPage: totals.counted / samples,
      requestsPerPage: totals.requests / samples,
      exactShare: totals.exact / samples,
      maxUnits: totals.maxUnits,
      p50,
      p95,
    });
  }
  return results;
}

/** Read units a url's page may cost, whatever the url's number of requests (DESIGN.md 9). */
const URL_PAGE_UNITS = 40;

function targets(results: readonly PatternResult[], sizes: readonly number[]): TargetResult[] {
  const out: TargetResult[] = [];
  const line = (result: PatternResult, target: string, pass: boolean, measured = result.unitsPerPage.toFixed(1)) =>
    out.push({ bench: `media log ${formatCount(result.size)}: ${result.pattern}, read units per page`, target, measured, pass });
  for (const result of results) {
    if (result.kind.startsWith('common')) {
      const budget = 2 * result.returnedPerPage;
      line(result, `≤ ${budget.toFixed(1)} (2 × ${result.returnedPerPage.toFixed(1)} returned)`, result.unitsPerPage <= budget);
    }
    if (result.kind.endsWith('url')) line(result, `≤ ${URL_PAGE_UNITS}`, result.unitsPerPage <= URL_PAGE_UNITS);
    line(result, `≤ ${LISTING_READ_UNITS} on every page`, result.maxUnits <= LISTING_READ_UNITS, `${result.maxUnits.toFixed(1)} at most`);
  }
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  if (small !== undefined && large !== undefined && large > small) {
    for (const pattern of PATTERNS) {
      const before = results.find((row) => row.size === small && row.pattern === pattern.name);
      const after = results.find((row) => row.size === large && row.pattern === pattern.name);
      if (!before || !after) continue;
      const growth = after.p95 / before.p95;
      const common = pattern.kind.startsWith('common');
      out.push({
        bench: `media log p95 ${formatCount(large)} vs ${formatCount(small)}: ${pattern.name}`,
        target: common ? '≤ 1.50× (flat)' : 'reported',
        measured: `${formatRatio(growth)} (${formatMs(before.p95)} → ${formatMs(after.p95)})`,
        pass: common ? growth <= 1.5 : null,
      });
    }
  }
  return out;
}

function formatResults(seeding: readonly SeedingResult[], results: readonly PatternResult[]): string {
  const seeded = formatTable(
    ['size', 'write s', 'fold s', 'entries/s, counted', 'seconds'],
    seeding.map((row) => [formatCount(row.size), row.writeSeconds, row.foldSeconds, formatCount(row.perSecond), row.seconds]),
  );
  const patterns = formatTable(
    ['size', 'listing (pages of 10)', 'returned', 'read units', 'max', 'items read/returned', 'index items', 'entries by key', 'counter items', 'counted', 'requests', 'total exact', 'p50', 'p95'],
    results.map((row) => [
      formatCount(row.size), row.pattern, row.returnedPerPage.toFixed(1), row.unitsPerPage.toFixed(1), row.maxUnits.toFixed(1), row.readPerReturned.toFixed(2), row.indexItemsPerPage.toFixed(1),
      row.entriesPerPage.toFixed(1), row.counterItemsPerPage.toFixed(1), row.countedPerPage.toFixed(1), row.requestsPerPage.toFixed(1), `${Math.round(row.exactShare * 100)} %`, formatMs(row.p50), formatMs(row.p95),
    ]),
  );
  return `${seeded}\n\n${patterns}`;
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
      patterns.push(...(await measure(size, options.samples ?? 40, users, { urls, ids })));
      print(formatResults(seeding.slice(-1), patterns.filter((row) => row.size === size)));
    }
  } finally {
    await log.stop();
  }
  return { seeding, patterns, targets: targets(patterns, sizes) };
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
