/**
 * The local gateway under load: autocannon (in a worker thread, so the load generator has its own
 * event loop) with 100 connections on a mix of profile and listing routes with the tokens of several
 * users, twice, against a bare Node server answering a typical User body under the same load in the
 * same run. Targets: no errors and no non-2xx answers; a p99 that holds from one run to the next.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { userRepository } from '../local/tool-composition';
import { registerUser, type CreateUser } from '../functions/users/user-registration';
import { AuthorizerRunner, loadAuthorizer } from '../local/gateway/authorizer-runner';
import { startGateway } from '../local/gateway/http-server';
import { mintLocalToken, type LocalSigningKey } from '../local/signing-key';
import { formatCount, formatMs, formatRatio, formatTable, ratio, type TargetResult } from './report';

/** Largest ratio between the p99 of the two gateway runs that still counts as stable. */
export const P99_STABILITY_BUDGET = 1.5;

/** How long the requests left in flight when a run stops may take to finish (the gateway's own timeout). */
const DRAIN_TIMEOUT_MS = 30_000;

/** Load settings. */
export interface GatewayLoadOptions {
  readonly connections: number;
  readonly durationSeconds: number;
  /**
   * Unreported run first, on each server: JIT (DynamoDB Local's JVM's above all), connection pools
   * and the authorizer cache warm up.
   */
  readonly warmupSeconds: number;
}

/** The subset of autocannon's request and result shapes used here (the package ships no types). */
interface LoadRequest {
  readonly method: 'GET' | 'PUT';
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

interface AutocannonResult {
  readonly duration: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCodeStats: Record<string, { count: number }>;
  readonly latency: { readonly p50: number; readonly p99: number; readonly max: number; readonly totalCount: number };
  readonly requests: { readonly average: number };
}

type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  workers: number;
  requests: readonly LoadRequest[];
}) => Promise<AutocannonResult>;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** One measured run. */
export interface LoadRun {
  readonly server: string;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly completed: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly statuses: string;
}

/** The bare baseline and the gateway runs. */
export interface GatewayLoadResult {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly routes: number;
  readonly callers: number;
  readonly bare: LoadRun;
  readonly gateway: readonly LoadRun[];
  readonly warmupFailures: number;
}

interface LoadCaller {
  readonly token: string;
  /** A user this caller may manage, for GET /user/{id}. */
  readonly managedId: number;
}

/** Callers of every role, created through the real registration, with tokens from the local key. */
async function createCallers(key: LocalSigningKey): Promise<LoadCaller[]> {
  const users = userRepository();
  const create = (email: string, extra: Partial<CreateUser> = {}) => registerUser(users, { email: `${email}@load.bench.example`, 'first-name': 'Load', 'last-name': email, ...extra });
  const root = await create('root', { role: 'root' });
  const admin = await create('admin', { role: 'admin' });
  const parents = [await create('user-a'), await create('user-b')];
  const subs = [await create('sub-a', { role: 'sub', parent: parents[0]?.id }), await create('sub-b', { role: 'sub', parent: parents[1]?.id })];
  const token = (subject: string) => mintLocalToken(key, subject, 3600);
  return Promise.all([
    { record: root, managedId: parents[0]?.id },
    { record: admin, managedId: parents[1]?.id },
    ...parents.map((record, index) => ({ record, managedId: subs[index]?.id })),
    ...subs.map((record) => ({ record, managedId: record.id })),
  ].map(async ({ record, managedId }) => ({ token: await token(record.subject), managedId: managedId as number })));
}

/** The mixed requests: each caller reads itself, lists, updates itself and reads a user it manages. */
function loadRequests(callers: readonly LoadCaller[]): LoadRequest[] {
  return callers.flatMap((caller) => {
    const headers = { authorization: `Bearer ${caller.token}`, accept: 'application/json' };
    return [
      { method: 'GET', path: `${API_PREFIX}/user/current`, headers },
      { method: 'GET', path: `${API_PREFIX}/user?pagination%5Blimit%5D=10`, headers },
      { method: 'PUT', path: `${API_PREFIX}/user/current`, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ 'first-name': 'Load', 'last-name': 'Tester' }) },
      { method: 'GET', path: `${API_PREFIX}/user/${caller.managedId}`, headers },
    ] as const;
  });
}

/** Every request once, before the load: a mix that fails is a broken bench, not a figure. Returns the first body. */
async function preflight(baseUrl: string, requests: readonly LoadRequest[]): Promise<string> {
  let first: string | undefined;
  for (const request of requests) {
    const response = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers: request.headers, ...(request.body ? { body: request.body } : {}) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${request.method} ${request.path} answered ${response.status} before the load: ${text.slice(0, 300)}`);
    first ??= text;
  }
  return first ?? '{}';
}

/** A bare Node server answering every request with `body` as JSON, after reading the request body. */
async function startBareServer(body: string): Promise<{ server: Server; url: string }> {
  const payload = Buffer.from(body);
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(payload.byteLength) });
      response.end(payload);
    });
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Count the requests a server is still answering. When autocannon stops it closes its connections,
 * but the gateway goes on serving what was in flight; the next run (or the shutdown of the
 * backends) must wait for those handlers. A response's `close` comes with its connection's, so the
 * count follows `end()`, which every answer of the gateway goes through.
 */
function trackInFlight(server: Server): { drained(maxMs: number): Promise<void> } {
  let inFlight = 0;
  server.on('request', (_request, response: ServerResponse) => {
    inFlight += 1;
    const end = response.end;
    let ended = false;
    response.end = function (this: ServerResponse, ...args: unknown[]) {
      if (!ended) inFlight -= 1;
      ended = true;
      return (end as (...endArgs: unknown[]) => ServerResponse).apply(this, args);
    } as ServerResponse['end'];
  });
  return {
    drained: async (maxMs) => {
      const deadline = performance.now() + maxMs;
      while (inFlight > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      if (inFlight > 0) throw new Error(`${inFlight} requests still in flight ${maxMs} ms after the load stopped.`);
    },
  };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function load(server: string, url: string, requests: readonly LoadRequest[], connections: number, duration: number): Promise<LoadRun> {
  const result = await autocannon({ url, connections, duration, workers: 1, requests });
  const statuses = Object.entries(result.statusCodeStats).map(([status, { count }]) => `${status}: ${formatCount(count)}`).join(', ');
  return {
    server,
    requestsPerSecond: result.latency.totalCount / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    completed: result.latency.totalCount,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statuses,
  };
}

/** Runs the load on a bare server and on the gateway; needs the local backends and environment in place. */
export async function benchGatewayLoad(key: LocalSigningKey, options: GatewayLoadOptions): Promise<GatewayLoadResult> {
  const callers = await createCallers(key);
  const requests = loadRequests(callers);
  // Access lines are written, as locally, but go nowhere: they would bury the tables.
  const accessLog = new Writable({ write: (_chunk, _encoding, done) => done() });
  const gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 300), 0, { accessLog });
  const inFlight = trackInFlight(gateway.server);
  try {
    const body = await preflight(gateway.baseUrl, requests);
    const bareServer = await startBareServer(body);
    const { connections, durationSeconds, warmupSeconds } = options;
    let bare: LoadRun;
    let warmupFailures = 0;
    try {
      const warm = await load('bare (warm-up)', bareServer.url, requests, connections, warmupSeconds);
      warmupFailures += warm.errors + warm.timeouts + warm.non2xx;
      bare = await load('bare node http', bareServer.url, requests, connections, durationSeconds);
    } finally {
      await closeServer(bareServer.server);
    }
    const gatewayRun = async (label: string, seconds: number) => {
      const run = await load(label, gateway.baseUrl, requests, connections, seconds);
      await inFlight.drained(DRAIN_TIMEOUT_MS);
      return run;
    };
    const warm = await gatewayRun('gateway (warm-up)', warmupSeconds);
    warmupFailures += warm.errors + warm.timeouts + warm.non2xx;
    const runs = [await gatewayRun('local gateway, run 1', durationSeconds), await gatewayRun('local gateway, run 2', durationSeconds)];
    return { connections, durationSeconds, routes: 4, callers: callers.length, bare, gateway: runs, warmupFailures };
  } finally {
    await gateway.close();
  }
}

/** Both servers' runs, with the gateway's figures as ratios against the bare server. */
export function formatGatewayLoad(result: GatewayLoadResult): string {
  const row = (run: LoadRun) => [
    run.server,
    formatCount(run.requestsPerSecond),
    formatRatio(ratio(run.requestsPerSecond, result.bare.requestsPerSecond)),
    formatMs(run.p50),
    formatMs(run.p99),
    formatRatio(ratio(run.p99, result.bare.p99)),
    formatMs(run.max),
    formatCount(run.completed),
    run.non2xx,
    run.errors + run.timeouts,
  ];
  return [
    `${result.connections} connections, ${result.durationSeconds} s per run, ${result.routes} routes × ${result.callers} callers (root, admin, users, subs); load generator in a worker thread`,
    formatTable(['server', 'req/s', 'vs bare', 'p50', 'p99', 'vs bare', 'max', 'requests', 'non-2xx', 'errors'], [result.bare, ...result.gateway].map(row)),
    `statuses: ${result.gateway.map((run) => `[${run.statuses}]`).join(' ')}; warm-up failures: ${result.warmupFailures}`,
  ].join('\n');
}

/** Summary lines: zero errors, p99 stability, and the ratios against the bare server. */
export function gatewayLoadTargets(result: GatewayLoadResult): TargetResult[] {
  const failures = result.gateway.reduce((sum, run) => sum + run.errors + run.timeouts, 0);
  const non2xx = result.gateway.reduce((sum, run) => sum + run.non2xx, 0);
  const completed = result.gateway.reduce((sum, run) => sum + run.completed, 0);
  const p99s = result.gateway.map((run) => run.p99);
  const stability = ratio(Math.max(...p99s), Math.min(...p99s));
  const meanRate = result.gateway.reduce((sum, run) => sum + run.requestsPerSecond, 0) / result.gateway.length;
  return [
    {
      bench: `gateway load: errors and non-2xx at ${result.connections} connections`,
      target: '0',
      measured: `${failures} errors, ${non2xx} non-2xx of ${formatCount(completed)}`,
      pass: failures === 0 && non2xx === 0 && result.warmupFailures === 0,
    },
    {
      bench: 'gateway load: p99 run 1 vs run 2 (higher / lower)',
      target: `≤ ${formatRatio(P99_STABILITY_BUDGET)}`,
      measured: `${formatRatio(stability)} (${p99s.map(formatMs).join(' / ')})`,
      pass: stability <= P99_STABILITY_BUDGET,
    },
    {
      bench: 'gateway load: throughput vs bare node server',
      target: 'ratio, no target',
      measured: `${formatRatio(ratio(meanRate, result.bare.requestsPerSecond))} (${formatCount(meanRate)} vs ${formatCount(result.bare.requestsPerSecond)} req/s)`,
      pass: null,
    },
    {
      bench: 'gateway load: p99 vs bare node server',
      target: 'ratio, no target',
      measured: `${formatRatio(ratio(Math.max(...p99s), result.bare.p99))} (${formatMs(Math.max(...p99s))} vs ${formatMs(result.bare.p99)})`,
      pass: null,
    },
  ];
}
