/**
 * Handler overhead: a warm request through the real handler (middleware, validation, domain code,
 * presentation), in-process on the event the local gateway builds with an authorizer context (the
 * authorizer itself is not in the measured path), against the same DynamoDB calls made directly with
 * the document client. Target: the handler's p50 at most 1.2× the raw calls' p50.
 */
import { tableName } from '../functions/shared/config/data-config';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { routeNamed } from '../functions/routes';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { getDocumentClient } from '../functions/shared/aws/clients';
import { toAuthorizerContext } from '../functions/shared/http/caller';
import type { Caller } from '../functions/shared/access/roles';
import { usersTable } from '../functions/shared/tables/users-table';
import { userRepository } from '../local/tool-composition';
import { usersKeys as userKeys } from '../functions/shared/tables/users-keys';
import { registerUser } from '../functions/users/user-registration';
import { loadRouteHandler } from '../local/gateway/dispatch';
import { lambdaContext } from '../local/gateway/lambda-context';
import { buildProxyEvent, type LocalRequest } from '../local/gateway/proxy-event';
import { matchRoute } from '../local/gateway/route-matcher';
import { formatMs, formatRatio, formatTable, ratio, repeatBounded, summarize, timed, type LoopBounds, type TargetResult } from './report';

/** Largest p50 ratio of a warm handler over the raw DynamoDB calls it makes. */
export const HANDLER_OVERHEAD_BUDGET = 1.2;

/** How many requests to warm up with and measure, per case. */
export interface HandlerOverheadOptions {
  readonly warmup: number;
  readonly measured: LoopBounds;
}

/** One measured case: a route, a caller, and the DynamoDB calls it makes. */
export interface OverheadRow {
  readonly label: string;
  readonly calls: string;
  readonly samples: number;
  readonly handlerP50: number;
  readonly handlerP95: number;
  readonly rawP50: number;
  readonly rawP95: number;
  readonly ratio: number;
}

interface OverheadCase {
  readonly label: string;
  readonly calls: string;
  readonly route: 'getCurrentUser' | 'updateCurrentUser';
  readonly caller: Caller;
  readonly raw: () => Promise<unknown>;
}

const PROFILE_UPDATE = { 'first-name': 'Ada', 'last-name': 'Lovelace' };

/** The raw calls of the profile routes, as the users repository makes them. */
function rawCalls(caller: Caller) {
  const client = getDocumentClient();
  const TableName = tableName(usersTable);
  // Every bearer route reads the caller's stored profile; the profile routes then read its avatars.
  const getCaller = () => client.send(new GetCommand({ TableName, Key: userKeys.profile(caller.userId), ConsistentRead: true }));
  const queryAvatars = () =>
    client.send(new QueryCommand({
      TableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :avatar)',
      ExpressionAttributeValues: { ':pk': userKeys.partition(caller.userId), ':avatar': userKeys.avatarPrefix },
      Limit: 20,
      ConsistentRead: true,
    }));
  const getParent = () =>
    caller.parentId === null ? Promise.resolve(null) : client.send(new GetCommand({ TableName, Key: userKeys.profile(caller.parentId), ConsistentRead: true }));
  const updateNames = () =>
    client.send(new UpdateCommand({
      TableName,
      Key: userKeys.profile(caller.userId),
      UpdateExpression: 'SET #updated = :updated, #firstName = :firstName, #lastName = :lastName ADD #version :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#updated': 'updated', '#version': 'version', '#firstName': 'firstName', '#lastName': 'lastName' },
      ExpressionAttributeValues: { ':updated': new Date().toISOString(), ':one': 1, ':firstName': PROFILE_UPDATE['first-name'], ':lastName': PROFILE_UPDATE['last-name'] },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }));
  return {
    get: async () => {
      await getCaller();
      await queryAvatars();
      await getParent();
    },
    put: async () => {
      await getCaller();
      await Promise.all([updateNames(), queryAvatars()]);
      await getParent();
    },
  };
}

/** A user of role `user` and one of its sub users, created through the real registration. */
async function createCallers(): Promise<{ user: Caller; sub: Caller }> {
  const users = userRepository();
  const parent = await registerUser(users, { email: 'overhead-user@bench.example', role: 'user', 'first-name': 'Grace', 'last-name': 'Hopper' });
  const sub = await registerUser(users, { email: 'overhead-sub@bench.example', role: 'sub', parent: parent.id, 'first-name': 'Ada', 'last-name': 'Byron' });
  return { user: { userId: parent.id, role: 'user', parentId: null }, sub: { userId: sub.id, role: 'sub', parentId: parent.id } };
}

function overheadCases(callers: { user: Caller; sub: Caller }): OverheadCase[] {
  const cases: OverheadCase[] = [];
  for (const [who, caller] of [['user', callers.user], ['sub', callers.sub]] as const) {
    const raw = rawCalls(caller);
    const parent = caller.parentId === null ? '' : ' + GetItem parent';
    cases.push({ label: `GET /user/current (${who})`, calls: `GetItem caller, Query avatars${parent}`, route: 'getCurrentUser', caller, raw: raw.get });
    cases.push({ label: `PUT /user/current (${who})`, calls: `GetItem caller, UpdateItem + Query avatars${parent}`, route: 'updateCurrentUser', caller, raw: raw.put });
  }
  return cases;
}

/** The gateway's request for a case (a fresh event per call: middleware may rewrite it). */
function requestOf(benchCase: OverheadCase): LocalRequest {
  const route = routeNamed(benchCase.route);
  const body = route.method === 'PUT' ? Buffer.from(JSON.stringify(PROFILE_UPDATE)) : Buffer.alloc(0);
  const headers: [string, string][] = [['Host', '127.0.0.1'], ['Accept', 'application/json']];
  if (body.byteLength > 0) headers.push(['Content-Type', 'application/json']);
  return { method: route.method, path: `${API_PREFIX}${route.path}`, rawQuery: '', headers, body, sourceIp: '127.0.0.1' };
}

async function measureCase(benchCase: OverheadCase, options: HandlerOverheadOptions): Promise<OverheadRow> {
  const request = requestOf(benchCase);
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error(`No route matches ${request.method} ${request.path}.`);
  const handler = await loadRouteHandler(match.route);
  const authorizer = { ...toAuthorizerContext(benchCase.caller) };
  const viaHandler = async (): Promise<number> => {
    const event = buildProxyEvent(request, match, authorizer);
    const context = lambdaContext(match.route.name, 29_000);
    const { ms, value } = await timed<APIGatewayProxyResult>(() => handler(event, context));
    if (value.statusCode !== 200) throw new Error(`${benchCase.label} answered ${value.statusCode}: ${value.body}`);
    return ms;
  };
  const direct = async (): Promise<number> => (await timed(benchCase.raw)).ms;
  await repeatBounded({ iterations: options.warmup, maxMs: options.measured.maxMs }, async () => {
    await viaHandler();
    await direct();
  });
  const handlerMs: number[] = [];
  const rawMs: number[] = [];
  // Alternate which goes first, so neither always follows the other's warm connection.
  const samples = await repeatBounded(options.measured, async (index) => {
    if (index % 2 === 0) {
      handlerMs.push(await viaHandler());
      rawMs.push(await direct());
    } else {
      rawMs.push(await direct());
      handlerMs.push(await viaHandler());
    }
  });
  const handlerStats = summarize(handlerMs);
  const rawStats = summarize(rawMs);
  return {
    label: benchCase.label,
    calls: benchCase.calls,
    samples,
    handlerP50: handlerStats.p50,
    handlerP95: handlerStats.p95,
    rawP50: rawStats.p50,
    rawP95: rawStats.p95,
    ratio: ratio(handlerStats.p50, rawStats.p50),
  };
}

/** Measures every case in turn; needs the local backends and environment in place. */
export async function benchHandlerOverhead(options: HandlerOverheadOptions): Promise<OverheadRow[]> {
  const cases = overheadCases(await createCallers());
  const rows: OverheadRow[] = [];
  for (const benchCase of cases) rows.push(await measureCase(benchCase, options));
  return rows;
}

/** One line per case: the handler's and the raw calls' p50 / p95, and the ratio. */
export function formatHandlerOverhead(rows: readonly OverheadRow[]): string {
  return formatTable(
    ['request', 'raw DynamoDB calls', 'samples', 'handler p50', 'raw p50', 'ratio p50', 'added p50', 'handler p95', 'raw p95'],
    rows.map((row) => [
      row.label, row.calls, row.samples, formatMs(row.handlerP50), formatMs(row.rawP50), formatRatio(row.ratio),
      formatMs(row.handlerP50 - row.rawP50), formatMs(row.handlerP95), formatMs(row.rawP95),
    ]),
  );
}

/** The summary line: the worst case's ratio against the budget. */
export function handlerOverheadTargets(rows: readonly OverheadRow[]): TargetResult[] {
  const worst = [...rows].sort((a, b) => b.ratio - a.ratio)[0];
  if (!worst) return [];
  return [{
    bench: 'handler overhead: warm handler p50 / raw DynamoDB calls p50 (worst case)',
    target: `≤ ${formatRatio(HANDLER_OVERHEAD_BUDGET)}`,
    measured: `${formatRatio(worst.ratio)} (${worst.label})`,
    pass: rows.every((row) => row.ratio <= HANDLER_OVERHEAD_BUDGET),
  }];
}
