import { randomUUID } from 'node:crypto';
import { jest } from '@jest/globals';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient, getS3Client } from '../../../functions/shared/aws/clients';
import { avatarObjectKey, sha256Hex } from '../../../functions/avatars/avatar-object-key';
import { avatarRepository, avatarStorage } from '../../../local/tool-composition';
import { AVATAR_DEFAULTS } from '../../../functions/avatars/avatar-config';
import { reconcileAvatarObjects } from '../../../functions/avatars/avatar-reconciler';
import { handler as reconcileHandler } from '../../../functions/avatars/reconcile-avatar-objects';
import { entryItem } from '../../../functions/media-log/model/entry-item';
import { handler as ingestHandler } from '../../../functions/media-log/feed/ingest-media-log';
import { writeMediaLogEntries } from '../../../functions/media-log/feed/import-changes';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';
import { applyMediaLogDeltasFunction, foldMediaLogCountsFunction } from '../../../functions/media-log/fold/stream-functions';
import type { MediaLogStreamEvent } from '../../../functions/media-log/fold/stream-batch';
import type { Context } from 'aws-lambda';
import { withLocalFold } from '../../../local/fold/media-log-fold';
import { rekeyMovedUsersFunction } from '../../../functions/media-log/family/family-functions';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogTable } from '../../../functions/shared/tables/media-log-table';
import { usersTable } from '../../../functions/shared/tables/users-table';
import { sampleMediaLogEntries } from '../../../local/seed/sample-entries';
import type { RouteName } from '../../../functions/routes';
import { generateSqsEvent } from '../../../local/invoke/sqs-event';
import { lambdaContext } from '../../../local/gateway/lambda-context';
import { buildAuthorizerEvent, buildProxyEvent } from '../../../local/gateway/proxy-event';
import { matchRoute } from '../../../local/gateway/route-matcher';
import { invoke, localRequest, type InvokeRequest } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { asFunction, recordSignedPost } from './sdk-recorder';
import { postToForm } from '../../avatars/routes/upload-forms';
import { quadrantImage } from '../../fixtures/images/generate';
import { streamBatchEvent } from './stream-event';
import { liveScenarios } from './live-scenarios';

/**
 * Every path of every deployed function's code that reaches DynamoDB or S3, run once each as that
 * function: the routes through the in-process gateway (the authorizer skipped, the route still
 * reading its caller as stored), the authorizer on a real token, the reconciler on a real orphan,
 * the counter fold on the stream records of the entries written.
 * Each step checks its answer, so that a step that stopped doing what it is meant to fails here
 * rather than silently leaving a permission unexercised.
 */

/** The users of the scenarios. */
interface People {
  readonly root: TestUser;
  readonly admin: TestUser;
  readonly parent: TestUser;
  readonly sub: TestUser;
}

/** Calls route `name` as `user` (its code running as that route's function) and checks the status. */
async function call(name: RouteName, user: TestUser | undefined, status: number, request: InvokeRequest = {}) {
  const response = await asFunction(name, () => invoke(name, { ...request, ...(user ? { caller: user.caller } : {}) }));
  if (response.status !== status) throw new Error(`${name} answered ${response.status}, not ${status}: ${JSON.stringify(response.body)}`);
  return response;
}

async function createPeople(): Promise<People> {
  const parent = await createTestUser({ role: 'user', username: 'grants-parent' });
  return {
    root: await createTestUser({ role: 'root' }),
    admin: await createTestUser({ role: 'admin' }),
    parent,
    sub: await createTestUser({ role: 'sub', parent: parent.record.id, username: 'grants-sub' }),
  };
}

async function profileScenarios({ admin, parent, sub }: People): Promise<void> {
  await call('getCurrentUser', sub, 200);
  await call('getUser', parent, 200, { pathParameters: { 'user-id': sub.record.id } });
  await call('getUser', admin, 200, { pathParameters: { 'user-id': parent.record.id } });
  await call('updateCurrentUser', sub, 200, { body: { 'first-name': 'Sub' } });
  await call('updateCurrentUser', sub, 412, { body: { 'last-name': 'Stale' }, headers: { 'If-Match': '"1"' } });
  await call('updateUser', parent, 200, { pathParameters: { 'user-id': sub.record.id }, body: { 'last-name': 'Child' } });
}

async function userListScenarios({ root, admin, parent }: People): Promise<void> {
  for (const query of ['', 'role=user&role=sub', 'email=user', 'username=grants', 'sort[field]=username&sort[order]=desc', 'sort[field]=email&status=active']) {
    await call('listUsers', root, 200, { query });
  }
  // Each scope (everyone, a role, a family) by each sort key has an index of its own.
  for (const sort of ['email', 'username']) await call('listUsers', root, 200, { query: `role=admin&sort[field]=${sort}` });
  await call('listUsers', admin, 200);
  for (const query of ['role=sub', 'sort[field]=email', 'sort[field]=username']) await call('listUsers', parent, 200, { query });
  const first = await call('listUsers', root, 200, { query: 'pagination[limit]=1' });
  await call('listUsers', root, 200, { query: `pagination[limit]=1&pagination[cursor]=${encodeURIComponent(first.body.pagination.next)}` });
}

/** The second stage's batch: what the deltas' stream holds (of one shard locally), as its mapping would deliver it. */
async function deltasBatch(): Promise<MediaLogStreamEvent> {
  const held = await withLocalFold((fold) => fold.deltas.heldRecords());
  const shard = held.find((candidate) => candidate.records.length > 0);
  if (shard === undefined) throw new Error('The first stage wrote no delta.');
  return { Records: shard.records, shardId: shard.shardId, eventSourceARN: shard.streamArn };
}

/**
 * The counter fold's two stages on the stream batch that inserting `entries` makes, then on the same
 * batches again, as a mapping redelivers them: the listings' total counts each entry once either way.
 */
async function foldScenario(entries: readonly MediaLogEntry[], { root, parent, sub }: People): Promise<void> {
  // As the feed stored them: the sub user's entries in its parent's family (counted there as well).
  const familyOf = (entry: MediaLogEntry) => (entry['user-id'] === sub.record.id ? parent.record.id : entry['user-id']);
  const event = streamBatchEvent(
    entries.map((entry) => ({ after: entryItem(entry, undefined, familyOf(entry)) })),
    { tableName: tableName(mediaLogTable), shardId: 'shardId-00000001700000000000-grants', keys: [mediaLogTable.partitionKey, mediaLogTable.sortKey].flatMap((key) => (key ? [key.name] : [])) },
  );
  // Loaded here, as Lambda loads them: their modules build their clients at load, after the recorder is on the shared one.
  const { handler: foldHandler } = await import('../../../functions/media-log/fold/fold-media-log-counts');
  const { handler: applyHandler } = await import('../../../functions/media-log/fold/apply-media-log-deltas');
  const stages = [
    { definition: foldMediaLogCountsFunction, run: (batch: MediaLogStreamEvent, context: Context) => foldHandler(batch, context), batch: async () => event },
    { definition: applyMediaLogDeltasFunction, run: (batch: MediaLogStreamEvent, context: Context) => applyHandler(batch, context), batch: deltasBatch },
  ];
  for (const delivery of ['first', 'repeated']) {
    for (const { definition, run, batch } of stages) {
      const stageEvent = await batch();
      const response = await asFunction(definition.name, () => run(stageEvent, lambdaContext(definition.name, definition.timeoutSeconds * 1000)));
      if (response.batchItemFailures.length > 0) throw new Error(`${definition.name} failed records: ${JSON.stringify(response)}`);
    }
    const { body } = await call('listMediaLog', root, 200);
    if (body.pagination.total !== entries.length) throw new Error(`After the ${delivery} delivery the log counts ${body.pagination.total} entries, not ${entries.length}.`);
  }
}

async function mediaLogScenarios(people: People): Promise<void> {
  const { root, admin, parent, sub } = people;
  const entries = sampleMediaLogEntries(60, { userIds: [parent.record.id, sub.record.id, root.record.id], start: new Date('2026-01-01T00:00:00Z'), spanMs: 40 * 86_400_000, seed: 3 });
  await writeMediaLogEntries(entries);
  await foldScenario(entries, people);
  const [entry] = entries;
  if (!entry) throw new Error('No sample entries.');
  const queries = [
    '',
    `url=${encodeURIComponent(entry.url)}`,
    `request=${entry.id}`,
    `user-id=${sub.record.id}`,
    'send[from]=2026-01-05T00:00:00Z&send[to]=2026-01-20T00:00:00Z',
    'status=error',
    'status-ffscan=error',
    'status-mediainfo=error',
    'status-scan-report=error',
    'pagination[page]=2&sort[order]=asc',
  ];
  for (const query of queries) await call('listMediaLog', root, 200, { query });
  await call('listMediaLog', admin, 200);
  await call('listMediaLog', parent, 200, { query: 'status=success' });
  // A user's url listing reads its family's own url partitions, never the url's whole partition.
  await call('listMediaLog', parent, 200, { query: `url=${encodeURIComponent(entry.url)}` });
  const first = await call('listMediaLog', parent, 200, { query: 'pagination[limit]=2' });
  await call('listMediaLog', parent, 200, { query: `pagination[limit]=2&pagination[cursor]=${encodeURIComponent(first.body.pagination.next)}` });
  await rekeyScenario(people);
}

/** A sub user given another parent, as the users table's stream tells the background re-key: its entries move family. */
async function rekeyScenario({ parent }: People): Promise<void> {
  const { handler } = await import('../../../functions/media-log/family/rekey-moved-users');
  const { name, timeoutSeconds } = rekeyMovedUsersFunction;
  const other = await createTestUser({ role: 'user' });
  const moved = await createTestUser({ role: 'sub', parent: parent.record.id });
  await writeMediaLogEntries(sampleMediaLogEntries(5, { userIds: [moved.record.id], start: new Date('2026-02-01T00:00:00Z'), spanMs: 86_400_000, seed: 5 }));
  const profile = (parentId: number) => ({ pk: `USER#${moved.record.id}`, sk: 'PROFILE', id: moved.record.id, role: 'sub', status: 'active', parentId });
  const event = streamBatchEvent([{ before: profile(parent.record.id), after: profile(other.record.id) }], { tableName: tableName(usersTable), shardId: 'shardId-00000001700000000000-users', keys: ['pk', 'sk'] });
  await asFunction(name, () => handler(event, lambdaContext(name, timeoutSeconds * 1000)));
}

/**
 * An upload whose record write took effect but whose answer was lost: the service settles it (the
 * profile fence, then the record's own read), requests no other path sends.
 */
async function settledUploadScenario(user: TestUser, upload: Readonly<Record<string, unknown>>): Promise<void> {
  const client = getDocumentClient();
  const send = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  const lost = jest.spyOn(client as { send: (command: unknown) => Promise<unknown> }, 'send').mockImplementation(async (command) => {
    const answer = await send(command);
    if (!(command instanceof TransactWriteCommand)) return answer;
    lost.mockRestore();
    throw Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
  });
  try {
    await call('uploadCurrentAvatar', user, 201, { body: upload });
  } finally {
    lost.mockRestore();
  }
}

async function avatarScenarios({ admin, parent, sub }: People, photoUrl: string): Promise<void> {
  const upload = { avatar: photoUrl, crop: { left: 0, top: 0, size: 16 } };
  // One more than the cap: the last upload replaces the oldest disabled avatar, record and image.
  for (let count = 0; count <= AVATAR_DEFAULTS.maxPerUser; count += 1) await call('uploadCurrentAvatar', parent, 201, { body: upload });
  await call('uploadUserAvatar', parent, 201, { pathParameters: { 'user-id': sub.record.id }, body: upload });
  await call('uploadUserAvatar', admin, 201, { pathParameters: { 'user-id': parent.record.id }, body: upload });
  // Files posted with upload forms: the form routes sign the post, the upload routes read and delete the file.
  const photo = await quadrantImage(32, 32, 'png');
  for (const [formRoute, uploadRoute, pathParameters] of [
    ['createCurrentAvatarUpload', 'uploadCurrentAvatar', undefined],
    ['createUserAvatarUpload', 'uploadUserAvatar', { 'user-id': sub.record.id }],
  ] as const) {
    const form = await call(formRoute, parent, 201, { ...(pathParameters ? { pathParameters } : {}), body: { 'content-type': 'image/png' } });
    recordSignedPost(formRoute, form.body);
    if ((await postToForm(form.body, photo)) !== 204) throw new Error('The local S3 refused the upload form.');
    await call(uploadRoute, parent, 201, { ...(pathParameters ? { pathParameters } : {}), body: { ...upload, avatar: form.body.source } });
    // The same source again: its file is gone (read, then the discard of a missing key).
    await call(uploadRoute, parent, 422, { ...(pathParameters ? { pathParameters } : {}), body: { ...upload, avatar: form.body.source } });
  }
  await settledUploadScenario(parent, upload);
  const { body: profile } = await invoke('getCurrentUser', { caller: parent.caller });
  const items = profile.avatars.items as { id: string; enabled?: boolean }[];
  const enabled = items.find((item) => item.enabled === true) ?? items[0];
  const disabled = items.find((item) => item !== enabled);
  for (const avatar of [enabled, disabled]) await call('deleteCurrentAvatar', parent, 204, { pathParameters: { 'avatar-id': String(avatar?.id) } });
}

/** Calls `name` twice with one new `Idempotency-Key` (the key reserved and the answer stored, then replayed). */
async function keyedTwice(name: RouteName, user: TestUser, status: number, request: InvokeRequest = {}) {
  const headers = { ...request.headers, 'Idempotency-Key': `"${randomUUID()}"` };
  await call(name, user, status, { ...request, headers });
  return call(name, user, status, { ...request, headers });
}

/** Calls `name` once with a new `Idempotency-Key`, expecting it to fail (the key freed again). */
function keyedFailure(name: RouteName, user: TestUser, status: number, request: InvokeRequest = {}) {
  return call(name, user, status, { ...request, headers: { ...request.headers, 'Idempotency-Key': `"${randomUUID()}"` } });
}

/**
 * Every route that takes an `Idempotency-Key`, keyed: a request and its replay, and a request that
 * fails after its key was reserved, whose record is deleted. An upload form can only fail that late
 * when its credentials cannot be had: that fault is injected.
 */
async function keyedScenarios({ root, parent, sub }: People, photoUrl: string): Promise<void> {
  const upload = { avatar: photoUrl, crop: { left: 0, top: 0, size: 16 } };
  const outside = { avatar: photoUrl, crop: { left: 60, top: 40, size: 16 } };
  const subPath = { pathParameters: { 'user-id': sub.record.id } };
  await keyedTwice('updateCurrentUser', sub, 200, { body: { 'first-name': 'Keyed' } });
  await keyedFailure('updateCurrentUser', sub, 412, { body: { 'first-name': 'Keyed' }, headers: { 'If-Match': '"0"' } });
  await keyedTwice('updateUser', parent, 200, { ...subPath, body: { 'first-name': 'Keyed' } });
  await keyedFailure('updateUser', parent, 412, { ...subPath, body: { 'first-name': 'Keyed' }, headers: { 'If-Match': '"0"' } });
  const stored = await keyedTwice('uploadCurrentAvatar', sub, 201, { body: upload });
  await keyedFailure('uploadCurrentAvatar', sub, 422, { body: outside });
  await keyedTwice('uploadUserAvatar', parent, 201, { ...subPath, body: upload });
  await keyedFailure('uploadUserAvatar', parent, 422, { ...subPath, body: outside });
  await keyedTwice('deleteCurrentAvatar', sub, 204, { pathParameters: { 'avatar-id': stored.body.avatar.id } });
  await keyedFailure('deleteCurrentAvatar', sub, 404, { pathParameters: { 'avatar-id': randomUUID() } });
  await keyedTwice('createCurrentAvatarUpload', parent, 201, { body: { 'content-type': 'image/png' } });
  await keyedTwice('createUserAvatarUpload', parent, 201, { ...subPath, body: { 'content-type': 'image/png' } });
  await keyedFailure('createUserAvatarUpload', parent, 404, { pathParameters: { 'user-id': root.record.id }, body: { 'content-type': 'image/png' } });
  const unreachable = Object.assign(new Error('connect ECONNREFUSED (credentials provider)'), { code: 'ECONNREFUSED' });
  const noCredentials = jest.spyOn(getS3Client().config, 'credentials').mockRejectedValueOnce(unreachable);
  try {
    await keyedFailure('createCurrentAvatarUpload', parent, 503, { body: { 'content-type': 'image/png' } });
  } finally {
    noCredentials.mockRestore();
  }
}

async function authorizerScenario({ parent }: People): Promise<void> {
  const request = localRequest('getCurrentUser', { token: parent.token });
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error('No route for the authorizer event.');
  // Loaded here, as Lambda loads it: after its configuration (the test file's signing key) exists.
  const { handler: authorizer } = await import('../../../functions/auth/authorizer');
  const result = await asFunction('authorizer', () => authorizer(buildAuthorizerEvent(buildProxyEvent(request, match, null)), lambdaContext('authorizer', 10_000)));
  if (result.policyDocument.Statement[0]?.Effect !== 'Allow') throw new Error('The authorizer refused a valid token.');
}

async function reconcilerScenario(): Promise<void> {
  const bytes = Buffer.from('orphan');
  const orphan = avatarObjectKey({ userId: 1, avatarId: randomUUID(), sha256: sha256Hex(bytes) });
  await avatarStorage().put(orphan, bytes);
  await asFunction('reconcileAvatarObjects', () => reconcileHandler({}, lambdaContext('reconcileAvatarObjects', 900_000)));
  // The handler spares what is younger than an hour; the same sweep two hours on judges everything.
  const report = await asFunction('reconcileAvatarObjects', () => reconcileAvatarObjects(avatarStorage(), avatarRepository(), { now: new Date(Date.now() + 2 * 3_600_000) }));
  if (!report.deleted.includes(orphan)) throw new Error('The reconciler kept an orphan.');
}

/** The feed consumer on a new request, its status change, the change again and an older one. */
async function feedScenario({ parent }: People): Promise<void> {
  const id = randomUUID();
  const send = new Date().toISOString();
  const later = new Date(Date.now() + 1000).toISOString();
  const bodies = [
    { type: 'media-request', entry: { id, send, url: 'https://media.example.com/feed.mp4', 'user-id': parent.record.id } },
    { type: 'status', id, field: 'status', value: 'success', at: later },
    { type: 'status', id, field: 'status', value: 'error', at: send },
  ].map((message) => JSON.stringify(message));
  const response = await asFunction('ingestMediaLog', () => ingestHandler(generateSqsEvent(bodies, 'MediaLogEvents'), lambdaContext('ingestMediaLog', 60_000)));
  if (response.batchItemFailures.length > 0) throw new Error(`The feed consumer failed messages: ${JSON.stringify(response)}`);
  // The same batch again: every message is a duplicate now.
  const again = await asFunction('ingestMediaLog', () => ingestHandler(generateSqsEvent(bodies, 'MediaLogEvents'), lambdaContext('ingestMediaLog', 60_000)));
  if (again.batchItemFailures.length > 0) throw new Error(`The feed consumer failed duplicates: ${JSON.stringify(again)}`);
}

/** Runs every scenario; the recorder notes what each function sent. */
export async function runScenarios(photoUrl: string): Promise<void> {
  const people = await createPeople();
  await profileScenarios(people);
  await userListScenarios(people);
  await mediaLogScenarios(people);
  await avatarScenarios(people, photoUrl);
  await keyedScenarios(people, photoUrl);
  await call('getOpenApi', undefined, 200);
  await authorizerScenario(people);
  await reconcilerScenario();
  await feedScenario(people);
  await liveScenarios();
}
