/**
 * What an `Idempotency-Key` costs (DESIGN.md 5b and 9):
 * - a request: each of two keyed routes through its real handler, in-process on the event the
 *   local gateway builds (as bench/handler-overhead.ts does), without a key, with a new key each
 *   time, and replaying one key; DynamoDB calls, read and write units per request as DynamoDB
 *   Local reports them (bench/capacity-meter.ts), and latency;
 * - a function: every function that takes a key, bundled as deployed and again with the key
 *   support left out (functions/shared/idempotency/idempotent-route.ts replaced by a pass-through),
 *   both sized and timed in the same cold-start rounds (bench/build-pairs.ts).
 */
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { routeNamed, routes, type RouteName } from '../functions/routes';
import { getDynamoDbClient } from '../functions/shared/aws/clients';
import { toAuthorizerContext } from '../functions/shared/http/caller';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { registerUser } from '../functions/users/user-registration';
import { loadRouteHandler } from '../local/gateway/dispatch';
import { lambdaContext } from '../local/gateway/lambda-context';
import { buildProxyEvent, type LocalRequest } from '../local/gateway/proxy-event';
import { matchRoute } from '../local/gateway/route-matcher';
import { userRepository } from '../local/tool-composition';
import { benchBuildPairs, formatBuildPairs, largestAddedKb, type BuildPairResult } from './build-pairs';
import { attachCapacityMeter, type CapacityTally } from './capacity-meter';
import { deployedFunctions, type OptionsChange } from '../local/lambda/function-bundles';
import { formatMs, formatSpread, formatTable, repeatBounded, spread, summarize, timed, type LoopBounds, type TargetResult } from './report';

/** How a request is sent: without a key, with a new key, or with the key of an earlier request. */
const MODES = ['no key', 'new key', 'replayed key'] as const;
type Mode = (typeof MODES)[number];

/** The routes measured per request: a profile update (a write of its own) and an upload form (no write of its own). */
const REQUEST_CASES: readonly { readonly route: RouteName; readonly body: unknown; readonly status: number }[] = [
  { route: 'updateCurrentUser', body: { 'first-name': 'Ada', 'last-name': 'Lovelace' }, status: 200 },
  { route: 'createCurrentAvatarUpload', body: { 'content-type': 'image/png' }, status: 201 },
];

/** One route in one mode: per request, what DynamoDB was asked and charged, and how long it took. */
export interface RequestCostRow {
  readonly route: string;
  readonly mode: Mode;
  readonly samples: number;
  readonly calls: Readonly<Record<string, number>>;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly refusedWrites: number;
  readonly p50: number;
  readonly p95: number;
}

/** Both parts of the bench. */
export interface IdempotencyCostResult {
  readonly requests: readonly RequestCostRow[];
  readonly closure: BuildPairResult;
}

function requestOf(route: RouteName, body: unknown, key: string | undefined): LocalRequest {
  const { method, path } = routeNamed(route);
  const headers: [string, string][] = [['Host', '127.0.0.1'], ['Content-Type', 'application/json']];
  if (key !== undefined) headers.push(['Idempotency-Key', key]);
  return { method, path: `${API_PREFIX}${path}`, rawQuery: '', headers, body: Buffer.from(JSON.stringify(body)), sourceIp: '127.0.0.1' };
}

/** Per-request averages of the tallies of `samples` requests. */
function perRequest(tallies: readonly CapacityTally[]): Pick<RequestCostRow, 'calls' | 'readUnits' | 'writeUnits' | 'refusedWrites'> {
  const count = Math.max(1, tallies.length);
  const calls: Record<string, number> = {};
  for (const tally of tallies) for (const [operation, n] of Object.entries(tally.calls)) calls[operation] = (calls[operation] ?? 0) + n / count;
  const mean = (pick: (tally: CapacityTally) => number) => tallies.reduce((sum, tally) => sum + pick(tally), 0) / count;
  return { calls, readUnits: mean((tally) => tally.readUnits), writeUnits: mean((tally) => tally.writeUnits), refusedWrites: mean((tally) => tally.refusedWrites) };
}

async function measureRoute(requestCase: (typeof REQUEST_CASES)[number], bounds: { warmup: number; measured: LoopBounds }): Promise<RequestCostRow[]> {
  const user = await registerUser(userRepository(), { email: `keys-${randomUUID()}@bench.example`, role: 'user', 'first-name': 'Grace', 'last-name': 'Hopper' });
  const authorizer = { ...toAuthorizerContext({ userId: user.id, role: 'user', parentId: null }) };
  const first = requestOf(requestCase.route, requestCase.body, undefined);
  const match = matchRoute(first.method, first.path);
  if (!match) throw new Error(`No route matches ${first.method} ${first.path}.`);
  const handler = await loadRouteHandler(match.route);
  const replayed = `"${randomUUID()}"`;
  const keyOf = (mode: Mode) => (mode === 'no key' ? undefined : mode === 'new key' ? `"${randomUUID()}"` : replayed);
  const send = async (mode: Mode): Promise<number> => {
    const event = buildProxyEvent(requestOf(requestCase.route, requestCase.body, keyOf(mode)), match, authorizer);
    const { ms, value } = await timed<APIGatewayProxyResult>(() => handler(event, lambdaContext(match.route.name, 29_000)));
    if (value.statusCode !== requestCase.status) throw new Error(`${requestCase.route} (${mode}) answered ${value.statusCode}: ${value.body}`);
    return ms;
  };
  await repeatBounded({ iterations: bounds.warmup, maxMs: bounds.measured.maxMs }, async () => {
    for (const mode of MODES) await send(mode);
  });
  const meter = attachCapacityMeter(getDynamoDbClient());
  const samples = new Map<Mode, { ms: number[]; tallies: CapacityTally[] }>(MODES.map((mode) => [mode, { ms: [], tallies: [] }]));
  try {
    // A new order each round, so that no mode always follows another's warm connection.
    await repeatBounded(bounds.measured, async (index) => {
      for (const mode of MODES.map((_, offset) => MODES[(index + offset) % MODES.length] as Mode)) {
        meter.take();
        const ms = await send(mode);
        const sample = samples.get(mode);
        sample?.ms.push(ms);
        sample?.tallies.push(meter.take());
      }
    });
  } finally {
    meter.detach();
  }
  return MODES.map((mode) => {
    const { ms, tallies } = samples.get(mode) ?? { ms: [], tallies: [] };
    const stats = summarize(ms);
    return { route: `${routeNamed(requestCase.route).method} ${routeNamed(requestCase.route).path}`, mode, samples: ms.length, ...perRequest(tallies), p50: stats.p50, p95: stats.p95 };
  });
}

/** The stub that takes the key support out of a bundle. */
const withoutKeySupport: Plugin = {
  name: 'without-idempotency-key',
  setup(build) {
    build.onResolve({ filter: /\/idempotency\/idempotent-route(\.ts)?$/ }, () => ({ path: resolve('bench/idempotency-stubs/idempotent-route.mjs') }));
  },
};

const asDeployed: OptionsChange = (options) => options;
const withoutKeys: OptionsChange = (options) => ({ ...options, plugins: [...(options.plugins ?? []), withoutKeySupport] });

/** The functions whose routes take an `Idempotency-Key`. */
function keyedFunctions() {
  const keyed = new Set(routes.filter((route) => route.idempotencyKey === true).map((route) => route.name));
  return deployedFunctions().filter((fn) => keyed.has(fn.name));
}

/** Runs both parts; the request part needs the local backends and environment in place. */
export async function benchIdempotencyCost(options: { warmup: number; measured: LoopBounds; rounds: number }): Promise<IdempotencyCostResult> {
  const requests: RequestCostRow[] = [];
  for (const requestCase of REQUEST_CASES) requests.push(...(await measureRoute(requestCase, options)));
  const closure = await benchBuildPairs(keyedFunctions(), { changes: { with: asDeployed, without: withoutKeys }, label: 'idempotency key' }, options.rounds);
  return { requests, closure };
}

function formatCalls(calls: Readonly<Record<string, number>>): string {
  return Object.entries(calls).sort(([a], [b]) => a.localeCompare(b)).map(([operation, n]) => `${operation} ${Number(n.toFixed(2))}`).join(', ');
}

/** Both tables: the per-request costs by route and mode, then the closure of each keyed function. */
export function formatIdempotencyCost(result: IdempotencyCostResult): string {
  const none = (route: string) => result.requests.find((row) => row.route === route && row.mode === 'no key');
  const requestTable = formatTable(
    ['route', 'request', 'samples', 'DynamoDB calls per request', 'read units', 'write units', 'refused writes', 'p50', 'p95', 'added p50'],
    result.requests.map((row) => [
      row.route, row.mode, row.samples, formatCalls(row.calls), row.readUnits.toFixed(2), row.writeUnits.toFixed(2), row.refusedWrites.toFixed(2),
      formatMs(row.p50), formatMs(row.p95), formatMs(row.p50 - (none(row.route)?.p50 ?? row.p50)),
    ]),
  );
  return [
    'Per request, in-process through the real handler against DynamoDB Local (units as it reports them; a refused conditional write reports none, AWS bills it as a write of the stored record, 1 unit under 1 KB):',
    requestTable,
    '',
    `Per function: bundled as deployed (with) and with idempotent-route.ts replaced by a pass-through (without); bare \`node -e ''\`: ${formatSpread(result.closure.bare)}, ${result.closure.rounds} rounds.`,
    formatBuildPairs(result.closure),
  ].join('\n');
}

/** The summary lines: a keyed request's extra writes and latency, and what the key support adds to a bundle and an init. */
export function idempotencyCostTargets(result: IdempotencyCostResult): TargetResult[] {
  const rows = (mode: Mode) => result.requests.filter((row) => row.mode === mode);
  const extraWrites = (mode: Mode) =>
    rows(mode).map((row) => {
      const none = result.requests.find((other) => other.route === row.route && other.mode === 'no key');
      return `${row.route}: ${(row.writeUnits - (none?.writeUnits ?? 0)).toFixed(1)} WU + ${row.refusedWrites.toFixed(0)} refused`;
    });
  const addedP50 = (mode: Mode) =>
    rows(mode).map((row) => formatMs(row.p50 - (result.requests.find((other) => other.route === row.route && other.mode === 'no key')?.p50 ?? row.p50))).join(', ');
  const largest = largestAddedKb({ ...result.closure, rows: result.closure.rows.filter((row) => !row.image) });
  const medianAdded = spread(result.closure.rows.filter((row) => !row.image).map((row) => row.addedMs.median)).median;
  return [
    { bench: 'Idempotency-Key: extra write units per request, new key', target: 'reported', measured: extraWrites('new key').join('; '), pass: null },
    { bench: 'Idempotency-Key: latency added p50 (new key; replay)', target: 'reported', measured: `${addedP50('new key')}; ${addedP50('replayed key')}`, pass: null },
    { bench: 'Idempotency-Key: bundle added (largest non-image function)', target: 'reported', measured: largest ? `${largest.kb.toFixed(1)} KB (${largest.name})` : 'n/a', pass: null },
    { bench: 'Idempotency-Key: init added (median non-image function)', target: 'reported', measured: formatMs(medianAdded), pass: null },
  ];
}
