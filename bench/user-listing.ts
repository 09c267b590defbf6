/**
 * GET /user at scale: seeds many users (items as the repository writes them, counters kept exact),
 * then calls the real listUsers handler in-process for the common listing patterns and reports the
 * items DynamoDB read per item returned (ScannedCount summed over every Query of the request,
 * measured by a middleware on the shared client) and the latency. Target: at most 1.5 items read
 * per item returned.
 */
import { tableName } from '../functions/shared/config/data-config';
import { BatchWriteCommand, UpdateCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { routeNamed } from '../functions/routes';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { getDocumentClient } from '../functions/shared/aws/clients';
import { toAuthorizerContext } from '../functions/shared/http/caller';
import type { Caller, Role } from '../functions/shared/access/roles';
import { usersTable } from '../functions/shared/tables/users-table';
import type { UserStatus } from '../functions/shared/access/roles';
import { familyOf, totalsAttribute, userItems, usersKeys as userKeys } from '../functions/shared/tables/users-keys';
import type { UserRecord } from '../functions/users/user-record';
import { loadRouteHandler } from '../local/gateway/dispatch';
import { lambdaContext } from '../local/gateway/lambda-context';
import { buildProxyEvent, type LocalRequest } from '../local/gateway/proxy-event';
import { matchRoute } from '../local/gateway/route-matcher';
import { type ReadTally } from '../functions/shared/observability/read-meter';
import { attachReadMeter } from '../local/metering/read-meter';
import { formatCount, formatMs, formatTable, progressBar, repeatBounded, summarize, type LoopBounds, type TargetResult } from './report';

/** Largest number of items read per item returned. */
export const ITEMS_READ_BUDGET = 1.5;

/** Sub users of the one large family whose listing is measured. */
const LARGE_FAMILY_SUBS = 50;
/** Users per BatchWrite: a profile and its two claims each, within DynamoDB's 25 items. */
const USERS_PER_BATCH = 8;
const BATCH_CONCURRENCY = 4;
const MAX_UNPROCESSED_RETRIES = 20;

/** Sizes and bounds of the run. */
export interface UserListingOptions {
  readonly users: number;
  /** Seeding stops early (with counters still exact) once this much time has passed. */
  readonly maxSeedMs: number;
  readonly samples: LoopBounds;
}

/** One measured listing pattern. */
export interface ListingRow {
  readonly label: string;
  readonly returned: number;
  readonly total: number;
  readonly reads: ReadTally;
  readonly readPerReturned: number;
  readonly p50: number;
  readonly p95: number;
  readonly samples: number;
  /** False for a reference figure with no target. */
  readonly targeted: boolean;
}

/** The seeded table and the measured patterns. */
export interface UserListingResult {
  readonly seeded: number;
  readonly seedSeconds: number;
  readonly rows: readonly ListingRow[];
}

/** The seeded callers whose listings are measured. */
interface SeededCallers {
  readonly root: Caller;
  readonly admin: Caller;
  readonly familyHead: Caller;
}

/**
 * The role of the user at `index` of the seed, in id order: two roots, twenty admins, then families
 * of a user followed by its subs; `familyHead` is the index of the current family's user.
 */
function seedRole(index: number, familyHead: number): Role {
  if (index < 2) return 'root';
  if (index < 22) return 'admin';
  return index === familyHead ? 'user' : 'sub';
}

function seedStatus(index: number): UserStatus {
  if (index <= 22 + LARGE_FAMILY_SUBS) return 'active';
  return index % 20 === 7 ? 'suspended' : index % 50 === 3 ? 'pending' : 'active';
}

/**
 * The profiles of the seed, as the repository's `create` builds them: the first family (index 22)
 * has {@link LARGE_FAMILY_SUBS} subs, the others 0–3.
 */
function* seedRecords(firstId: number, count: number, now: string): Generator<UserRecord> {
  const family = { head: 22, subs: LARGE_FAMILY_SUBS, headId: 0 };
  for (let index = 0; index < count; index += 1) {
    if (index > family.head + family.subs) {
      family.head = index;
      family.subs = (index * 7) % 4;
    }
    const id = firstId + index;
    const role = seedRole(index, family.head);
    if (role === 'user') family.headId = id;
    yield {
      id, subject: String(id), email: `user-${id}@seed.bench.example`,
      // Scrambled so that username order is not id order.
      username: `seed-${((id * 2_654_435_761) >>> 0).toString(36)}`,
      role, status: seedStatus(index), parentId: role === 'sub' ? family.headId : null,
      firstName: 'Seed', lastName: `User ${id}`, additionalEmails: null, plan: null, currentAvatarId: null,
      created: now, updated: now, version: 1,
    };
  }
}

/** Reserve `count` ids from the users' id sequence; returns the first. */
async function reserveIds(client: DynamoDBDocumentClient, table: string, count: number): Promise<number> {
  const { Attributes } = await client.send(new UpdateCommand({
    TableName: table, Key: userKeys.idSequence, UpdateExpression: 'ADD #value :count',
    ExpressionAttributeNames: { '#value': 'value' }, ExpressionAttributeValues: { ':count': count }, ReturnValues: 'UPDATED_NEW',
  }));
  return (Attributes?.value as number) - count + 1;
}

type WriteRequests = NonNullable<BatchWriteCommandInput['RequestItems']>[string];

async function writeBatch(client: DynamoDBDocumentClient, table: string, records: readonly UserRecord[]): Promise<void> {
  // Every item the repository's create writes for a user: its profile and both claims.
  let pending: WriteRequests = records.flatMap((record) => Object.values(userItems(record)).map((Item) => ({ PutRequest: { Item } })));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > MAX_UNPROCESSED_RETRIES) throw new Error(`BatchWrite left ${pending.length} items unprocessed.`);
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    const output = await client.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
    pending = output.UnprocessedItems?.[table] ?? [];
  }
}

/** Seed users with BatchWrite and add them to the per-role/status totals; returns the callers and the count written. */
async function seedUsers(options: UserListingOptions): Promise<{ callers: SeededCallers; seeded: number }> {
  const client = getDocumentClient();
  const table = tableName(usersTable);
  const firstId = await reserveIds(client, table, options.users);
  const records = seedRecords(firstId, options.users, new Date().toISOString());
  // The same kept counts the repository's create transaction maintains: per scope (everyone, the family), per role × status.
  const totals = new Map<string, { key: ReturnType<typeof userKeys.totals>; attribute: string; count: number }>();
  const deadline = performance.now() + options.maxSeedMs;
  const bar = progressBar('seeding users', options.users);
  let seeded = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const batch: UserRecord[] = [];
      while (batch.length < USERS_PER_BATCH) {
        const next = records.next();
        if (next.done) break;
        batch.push(next.value);
      }
      if (batch.length === 0) return;
      await writeBatch(client, table, batch);
      for (const user of batch) {
        const family = familyOf(user);
        for (const scope of family === null ? (['all'] as const) : (['all', { family }] as const)) {
          const key = userKeys.totals(scope);
          const attribute = totalsAttribute(user.role, user.status);
          const id = `${key.sk}|${attribute}`;
          totals.set(id, { key, attribute, count: (totals.get(id)?.count ?? 0) + 1 });
        }
      }
      seeded += batch.length;
      bar.increment(batch.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: BATCH_CONCURRENCY }, worker));
  } finally {
    bar.stop();
  }
  for (const { key, attribute, count } of totals.values()) {
    await client.send(new UpdateCommand({
      TableName: table, Key: key, UpdateExpression: 'ADD #combo :delta',
      ExpressionAttributeNames: { '#combo': attribute }, ExpressionAttributeValues: { ':delta': count },
    }));
  }
  const callers = { root: { userId: firstId, role: 'root', parentId: null }, admin: { userId: firstId + 2, role: 'admin', parentId: null }, familyHead: { userId: firstId + 22, role: 'user', parentId: null } } as const;
  return { callers, seeded };
}

interface ListingAnswer {
  readonly ms: number;
  readonly returned: number;
  readonly total: number;
  readonly next: string | null;
}

/** GET /user through the real handler, on the gateway's event with `caller`'s authorizer context. */
async function listUsers(caller: Caller, rawQuery: string): Promise<ListingAnswer> {
  const route = routeNamed('listUsers');
  const request: LocalRequest = { method: route.method, path: `${API_PREFIX}${route.path}`, rawQuery, headers: [['Host', '127.0.0.1']], body: Buffer.alloc(0), sourceIp: '127.0.0.1' };
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error('GET /user does not match its own route.');
  const handler = await loadRouteHandler(match.route);
  const event = buildProxyEvent(request, match, { ...toAuthorizerContext(caller) });
  const started = performance.now();
  const result = await handler(event, lambdaContext(route.name, 29_000));
  const ms = performance.now() - started;
  if (result.statusCode !== 200) throw new Error(`GET /user?${rawQuery} answered ${result.statusCode}: ${result.body}`);
  const body = JSON.parse(result.body) as { users: unknown[]; pagination: { total: number; next?: string | null } };
  return { ms, returned: body.users.length, total: body.pagination.total, next: body.pagination.next ?? null };
}

/** The cursor query of page `page`, by following `next` from page 1. */
async function cursorQueryFor(caller: Caller, page: number): Promise<string> {
  let query = '';
  for (let current = 1; current < page; current += 1) {
    const { next } = await listUsers(caller, query);
    if (next === null) throw new Error(`The listing ends before page ${page}.`);
    query = `pagination%5Bcursor%5D=${encodeURIComponent(next)}`;
  }
  return query;
}

async function measurePattern(label: string, caller: Caller, rawQuery: string, samples: LoopBounds, targeted = true): Promise<ListingRow> {
  const meter = attachReadMeter(getDocumentClient());
  let first: ListingAnswer;
  let reads: ReadTally;
  try {
    first = await listUsers(caller, rawQuery);
    reads = meter.tally();
  } finally {
    meter.detach();
  }
  const latencies: number[] = [];
  const count = await repeatBounded(samples, async () => {
    latencies.push((await listUsers(caller, rawQuery)).ms);
  });
  const { p50, p95 } = summarize(latencies);
  const readPerReturned = first.returned === 0 ? Number.NaN : (reads.indexItems + reads.queryItems) / first.returned;
  return { label, returned: first.returned, total: first.total, reads, readPerReturned, p50, p95, samples: count, targeted };
}

/** Seeds the users table and measures the listing patterns; needs the local backends and environment in place. */
export async function benchUserListing(options: UserListingOptions): Promise<UserListingResult> {
  const started = performance.now();
  const { callers, seeded } = await seedUsers(options);
  const seedSeconds = (performance.now() - started) / 1000;
  const { root, admin, familyHead } = callers;
  const page50 = await cursorQueryFor(root, 50);
  const rows: ListingRow[] = [];
  const patterns: [string, Caller, string, boolean?][] = [
    ['root, default page (page 1)', root, ''],
    ['root, role=sub', root, 'role=sub'],
    ['admin, default page (root users filtered out)', admin, ''],
    [`user with ${LARGE_FAMILY_SUBS} subs, its family`, familyHead, ''],
    ['root, sorted by username', root, 'sort%5Bfield%5D=username'],
    ['root, page 50 via cursor', root, page50],
    ['root, pagination[page]=50 without cursor', root, 'pagination%5Bpage%5D=50', false],
  ];
  for (const [label, caller, query, targeted] of patterns) rows.push(await measurePattern(label, caller, query, options.samples, targeted ?? true));
  return { seeded, seedSeconds, rows };
}

/** One line per pattern: what was returned, what was read, and the latency. */
export function formatUserListing(result: UserListingResult): string {
  const rows = result.rows.map((row) => [
    row.label, row.returned, formatCount(row.total), row.reads.indexItems + row.reads.queryItems, row.reads.countedItems, row.reads.keyItems,
    row.readPerReturned.toFixed(2), row.reads.billedReadUnits.toFixed(1), formatMs(row.p50), formatMs(row.p95),
    row.targeted ? (row.readPerReturned <= ITEMS_READ_BUDGET ? `ok (≤ ${ITEMS_READ_BUDGET})` : `OVER ${ITEMS_READ_BUDGET}`) : 'reference',
  ]);
  return [
    `${formatCount(result.seeded)} users seeded in ${result.seedSeconds.toFixed(0)} s (BatchWrite, counters kept exact); page size 10; latency over ${result.rows[0]?.samples ?? 0} requests per pattern`,
    'Query items: ScannedCount summed over every Query of the request (the page, and the counting Query where total is counted);',
    'counter items: the scope\'s kept-totals item read by GetItem; RCU: read units of all calls as AWS bills them: as DynamoDB Local reports them, a read that finds nothing at the minimum',
    formatTable(['pattern', 'returned', 'total', 'Query items', 'of which counting', 'counter items', 'read/returned', 'RCU', 'p50', 'p95', 'verdict'], rows),
  ].join('\n');
}

/** Summary lines: the worst targeted pattern, and the deep page without a cursor for reference. */
export function userListingTargets(result: UserListingResult): TargetResult[] {
  const targeted = result.rows.filter((row) => row.targeted);
  const worst = [...targeted].sort((a, b) => b.readPerReturned - a.readPerReturned)[0];
  const reference = result.rows.filter((row) => !row.targeted);
  return [
    ...(worst ? [{
      bench: `user listing: items read per item returned, worst of ${targeted.length} patterns (${formatCount(result.seeded)} seeded)`,
      target: `≤ ${ITEMS_READ_BUDGET}`,
      measured: `${worst.readPerReturned.toFixed(2)} (${worst.label})`,
      pass: targeted.every((row) => row.readPerReturned <= ITEMS_READ_BUDGET),
    }] : []),
    ...reference.map((row) => ({ bench: `user listing: ${row.label}`, target: 'reference, no target', measured: `${row.readPerReturned.toFixed(2)} read/returned, p95 ${formatMs(row.p95)}`, pass: null })),
  ];
}
