import { avatarBucketName } from '../../functions/shared/config/data-config';
import { randomUUID } from 'node:crypto';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { openApiDocument } from '../../functions/openapi/document';
import type { RouteName } from '../../functions/routes';
import { getS3Client } from '../../functions/shared/aws/clients';
import { userAccounts, userRepository } from '../../local/tool-composition';
import { rekeyMovedUsersFunction } from '../../functions/media-log/family/family-functions';
import { MemoryCheckpoints } from '../../local/fold/checkpoints';
import { LocalStreamConsumer } from '../../local/fold/stream-consumer';
import { withLocalFold } from '../../local/fold/media-log-fold';
import { applyMediaLogDeltasFunction } from '../../functions/media-log/fold/stream-functions';
import { buildAuthorizerEvent } from '../../local/gateway/proxy-event';
import { PROJECT_ROOT } from '../../lib/function-bundling';
import { deployedFunctions, type DeployedFunction } from '../../local/lambda/function-bundles';
import type { InvokeRequest } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { objectKeysOf, storedObjectKeys } from '../avatars/routes/stored-avatars';
import { postToForm } from '../avatars/routes/upload-forms';
import { quadrantImage } from '../fixtures/images/generate';
import { SMALL_CROP, useAvatarTestBed } from '../avatars/routes/test-bed';
import { generateSqsEvent } from '../../local/invoke/sqs-event';
import { generateStreamEvent } from '../../local/invoke/stream-event';
import { foldLog } from '../harness/media-log';
import { entryWriter, proxyEvent, resultOf, routeAnswer, scheduledEvent, useDeployedBundles } from './deployed-bundles-harness';
import { useLiveBundles } from './live-scenarios';

/**
 * The artifact that deploys is the artifact tested: every deployed function, bundled with the
 * stack's esbuild options and run from its bundle in a fresh Node process the way the Lambda
 * runtime loads it, with nothing resolvable but what the runtime provides (and sharp beside the
 * image functions), on the event API Gateway, a stream or EventBridge would send, against this
 * file's DynamoDB tables, bucket and WebSocket API (live-scenarios.ts). A bundling, packaging or
 * import-order error fails here.
 */

const bed = useAvatarTestBed();
const live = useLiveBundles(invokeDeployed);
const deployed = useDeployedBundles();
const functions = deployedFunctions();
let parent: TestUser;
let sub: TestUser;

function functionNamed(name: string): DeployedFunction {
  const fn = functions.find((candidate) => candidate.name === name);
  if (!fn) throw new Error(`${name} is not a deployed function.`);
  return fn;
}

/** Invoke the deployed bundle of function `name` once on `event`; the image source is on the fetch's allow list, the WebSocket API is this file's. */
function invokeDeployed(name: string, event: unknown) {
  const fn = functionNamed(name);
  return deployed.invoke(fn, deployed.bundles.get(name)!, event, { AVATAR_FETCH_ALLOW_HOSTS: bed.source.server.hostPort, ...live.configuration() });
}

/** Call route `name` through its bundle as `user` (none for a public route). */
async function callRoute(name: RouteName, request: InvokeRequest, user?: TestUser) {
  return routeAnswer(name, await invokeDeployed(name, await proxyEvent(name, request, user)));
}

/** The REQUEST authorizer event API Gateway sends for a call carrying `token`. */
async function authorizerEvent(token: string) {
  return buildAuthorizerEvent(await proxyEvent('getCurrentUser', { token }));
}

beforeAll(async () => {
  parent = await createTestUser({ role: 'user', 'first-name': 'Ada' });
  sub = await createTestUser({ role: 'sub', parent: parent.record.id });
});

/** What each function's bundle must do; a deployed function without an entry fails the test. */
const scenarios: Readonly<Record<string, () => Promise<void>>> = {
  listUsers: async () => {
    const { status, body } = await callRoute('listUsers', { query: 'sort[field]=id' }, parent);
    expect(status).toBe(200);
    expect(body.users.map((user: { id: number }) => user.id)).toEqual([parent.record.id, sub.record.id]);
  },
  getCurrentUser: async () => {
    const { status, body } = await callRoute('getCurrentUser', {}, parent);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: parent.record.id, 'first-name': 'Ada' });
  },
  updateCurrentUser: async () => {
    const user = await createTestUser();
    // With a key, as the typed client sends it: the bundle carries the idempotency layer, and a retry gets the first answer.
    const request = { body: { 'last-name': 'Bundled' }, headers: { 'Idempotency-Key': `"${randomUUID()}"` } };
    const first = await callRoute('updateCurrentUser', request, user);
    const retried = await callRoute('updateCurrentUser', request, user);
    expect(first.status).toBe(200);
    expect(first.body['last-name']).toBe('Bundled');
    expect([retried.status, retried.body, retried.headers.etag]).toEqual([200, first.body, first.headers.etag]);
    expect((await userRepository().findById(user.record.id))?.version).toBe(2);
  },
  getUser: async () => {
    const { status, body } = await callRoute('getUser', { pathParameters: { 'user-id': sub.record.id } }, parent);
    expect(status).toBe(200);
    expect(body.id).toBe(sub.record.id);
  },
  updateUser: async () => {
    const { status, body } = await callRoute('updateUser', { pathParameters: { 'user-id': sub.record.id }, body: { role: 'root' } }, parent);
    expect(status).toBe(400);
    expect(body.errors).toEqual([expect.objectContaining({ name: 'role' })]);
  },
  getOpenApi: async () => {
    const { status, body } = await callRoute('getOpenApi', {});
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.1\./);
    // The document the bundle reads from the file beside it is the one built from the route table.
    expect(body).toEqual(openApiDocument());
  },
  listMediaLog: async () => {
    const failed = { id: randomUUID(), send: '2026-03-04T05:06:07.089Z', status: 'error', 'status-ffscan': 'error', 'status-mediainfo': 'success', 'status-scan-report': 'skipped', url: 'https://media.example.com/a.mp4', 'user-id': sub.record.id } as const;
    await entryWriter().write(failed);
    await foldLog();
    const { status, body } = await callRoute('listMediaLog', { query: 'status=error' }, parent);
    expect(status).toBe(200);
    expect(body).toMatchObject({ log: [failed], filter: { status: ['error'] }, pagination: { total: 1 } });
  },
  uploadCurrentAvatar: async () => {
    const user = await createTestUser();
    const { status, body } = await callRoute('uploadCurrentAvatar', { body: { avatar: bed.photoUrl, crop: SMALL_CROP } }, user);
    expect(status).toBe(201);
    expect(await objectKeysOf(user.record.id)).toEqual([expect.stringContaining(body.avatar.id)]);
  },
  uploadUserAvatar: async () => {
    const { status, body } = await callRoute('uploadUserAvatar', { pathParameters: { 'user-id': sub.record.id }, body: { avatar: bed.photoUrl, crop: { left: 60, top: 0, size: 32 } } }, parent);
    expect(status).toBe(422);
    expect(body.code).toBeDefined();
  },
  createCurrentAvatarUpload: async () => {
    // The whole flow through the bundles: a form, the file posted to the local S3, the avatar from its source.
    const user = await createTestUser();
    const form = await callRoute('createCurrentAvatarUpload', { body: { 'content-type': 'image/png' } }, user);
    expect(form.status).toBe(201);
    expect(await postToForm(form.body, await quadrantImage(64, 48, 'png'))).toBe(204);
    const { status } = await callRoute('uploadCurrentAvatar', { body: { avatar: form.body.source, crop: SMALL_CROP } }, user);
    expect(status).toBe(201);
    expect((await storedObjectKeys()).filter((key) => key.startsWith(`uploads/${user.record.id}/`))).toEqual([]);
  },
  createUserAvatarUpload: async () => {
    const { status, body } = await callRoute('createUserAvatarUpload', { pathParameters: { 'user-id': sub.record.id }, body: { 'content-type': 'image/webp' } }, parent);
    expect(status).toBe(201);
    expect(body.fields.key).toMatch(new RegExp(`^uploads/${sub.record.id}/`));
  },
  deleteCurrentAvatar: async () => {
    const user = await createTestUser();
    const { body } = await bed.upload(user);
    const { status } = await callRoute('deleteCurrentAvatar', { pathParameters: { 'avatar-id': body.avatar.id } }, user);
    expect(status).toBe(204);
    expect(await objectKeysOf(user.record.id)).toEqual([]);
  },
  authorizer: async () => {
    const allowed = resultOf(await invokeDeployed('authorizer', await authorizerEvent(parent.token))) as APIGatewayAuthorizerResult;
    expect(allowed.policyDocument.Statement).toEqual([expect.objectContaining({ Effect: 'Allow' })]);
    expect(allowed.context).toMatchObject({ userId: String(parent.record.id), role: 'user' });
    expect((await invokeDeployed('authorizer', await authorizerEvent('forged'))).error).toMatchObject({ phase: 'invoke', errorMessage: 'Unauthorized' });
  },
  reconcileAvatarObjects: async () => {
    await getS3Client().send(new PutObjectCommand({ Bucket: avatarBucketName(), Key: 'avatars/not-ours.txt', Body: 'left alone' }));
    const report = resultOf(await invokeDeployed('reconcileAvatarObjects', scheduledEvent()));
    expect(report).toMatchObject({ deleted: [], foreign: ['avatars/not-ours.txt'] });
  },
  ingestMediaLog: async () => {
    const id = randomUUID();
    const messages = [
      { type: 'media-request', entry: { id, send: '2026-05-06T07:08:09.000Z', url: 'https://media.example.com/feed.mp4', 'user-id': sub.record.id } },
      { type: 'status', id, field: 'status-ffscan', value: 'success', at: '2026-05-06T07:08:19.000Z' },
    ];
    const event = generateSqsEvent([...messages.map((message) => JSON.stringify(message)), 'not json'], 'MediaLogEvents');
    const response = resultOf(await invokeDeployed('ingestMediaLog', event)) as { batchItemFailures: { itemIdentifier: string }[] };
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: event.Records[2]?.messageId }]);
    const { body } = await callRoute('listMediaLog', { query: `request=${id}` }, parent);
    expect(body.log).toEqual([expect.objectContaining({ id, status: 'pending', 'status-ffscan': 'success' })]);
  },
  foldMediaLogCounts: async () => {
    const url = `https://media.example.com/${randomUUID()}.mp4`;
    await entryWriter().write({ id: randomUUID(), send: '2026-05-07T07:08:09.000Z', status: 'success', 'status-ffscan': 'success', 'status-mediainfo': 'success', 'status-scan-report': 'success', url, 'user-id': sub.record.id });
    // The stream's last change, as the event source mapping delivers it; run twice, as a redelivery would.
    const event = await generateStreamEvent(1);
    const totals: number[] = [];
    for (let run = 0; run < 2; run += 1) {
      expect(resultOf(await invokeDeployed('foldMediaLogCounts', event))).toEqual({ state: {}, batchItemFailures: [] });
      // The second stage, as npm start runs it, on the deltas the bundle wrote.
      await withLocalFold((fold) => fold.deltas.drain());
      totals.push((await callRoute('listMediaLog', { query: `url=${encodeURIComponent(url)}&status=success` }, parent)).body.pagination.total);
    }
    expect(totals).toEqual([1, 1]);
  },
  applyMediaLogDeltas: async () => {
    const url = `https://media.example.com/${randomUUID()}.mp4`;
    await entryWriter().write({ id: randomUUID(), send: '2026-05-07T08:08:09.000Z', status: 'success', 'status-ffscan': 'success', 'status-mediainfo': 'success', 'status-scan-report': 'success', url, 'user-id': sub.record.id });
    await withLocalFold((fold) => fold.entries.drain());
    // The deltas table's stream, delivered to the bundle as its event source mapping delivers it; then all of it again, as a redelivery would.
    const totals: number[] = [];
    for (let run = 0; run < 2; run += 1) {
      const consumer = new LocalStreamConsumer(applyMediaLogDeltasFunction, new MemoryCheckpoints(), async (event) => resultOf(await invokeDeployed('applyMediaLogDeltas', event)));
      try {
        expect((await consumer.drain()).delivered).toBeGreaterThan(0);
      } finally {
        await consumer.stop();
      }
      totals.push((await callRoute('listMediaLog', { query: `url=${encodeURIComponent(url)}&status=success` }, parent)).body.pagination.total);
    }
    expect(totals).toEqual([1, 1]);
  },
  rekeyMovedUsers: async () => {
    const other = await createTestUser({ role: 'user' });
    const moved = await createTestUser({ role: 'sub', parent: parent.record.id });
    const id = randomUUID();
    await entryWriter().write({ id, send: '2026-05-08T07:08:09.000Z', status: 'success', 'status-ffscan': 'success', 'status-mediainfo': 'success', 'status-scan-report': 'success', url: 'https://media.example.com/moved.mp4', 'user-id': moved.record.id });
    await userAccounts().update(moved.record.id, { parent: other.record.id });
    // The users table's stream, delivered to the bundle as its event source mapping delivers it.
    const consumer = new LocalStreamConsumer(rekeyMovedUsersFunction, new MemoryCheckpoints(), async (event) => resultOf(await invokeDeployed('rekeyMovedUsers', event)));
    try {
      expect((await consumer.drain()).delivered).toBeGreaterThan(0);
    } finally {
      await consumer.stop();
    }
    await foldLog();
    expect((await callRoute('listMediaLog', {}, other)).body.log.map((entry: { id: string }) => entry.id)).toEqual([id]);
    expect((await callRoute('listMediaLog', { query: `request=${id}` }, parent)).body.log).toEqual([]);
  },
  ...live.scenarios,
};

describe('every deployed function, run from its bundle as Lambda runs it', () => {
  it.each(functions.map((fn) => [fn.name]))('%s', async (name) => {
    expect(Object.keys(scenarios)).toContain(name);
    await scenarios[name]!();
  });
});

describe('the idempotency layer', () => {
  it('is in the bundle of every route that takes an Idempotency-Key, and nothing of Powertools Idempotency in any other', () => {
    // Its JMESPath engine included: the part esbuild could not shake out of a bundle that merely imported it.
    const carriesIdempotency = (name: string) => Object.keys(deployed.bundles.get(name)!.metafile.inputs).some((input) => /@aws-lambda-powertools\/(idempotency|jmespath)\//.test(input));
    const keyed = functions.filter((fn) => fn.kind === 'route' && fn.route.idempotencyKey === true).map((fn) => fn.name);
    expect(keyed.length).toBeGreaterThan(0);
    expect(functions.filter((fn) => carriesIdempotency(fn.name)).map((fn) => fn.name)).toEqual(keyed);
  });
});

describe('the bundle runner', () => {
  /** The authorizer bundled with jose left out, as a wrong external list would leave it, in a task folder of its own. */
  const withoutJose = (name: string) => {
    const fn: DeployedFunction = { ...functionNamed('authorizer'), name };
    return { fn, deploy: () => deployed.deploy(fn, (options) => ({ ...options, external: [...(options.external ?? []), 'jose'] })) };
  };

  it('fails a bundle that imports a package the Lambda runtime does not provide', async () => {
    const broken = withoutJose('authorizer-without-jose');
    const bundle = await broken.deploy();

    const invocation = await deployed.invoke(broken.fn, bundle, await authorizerEvent(parent.token));

    expect(bundle.imports).toContain('jose');
    expect(invocation.error).toMatchObject({ phase: 'init', errorType: 'Runtime.ImportModuleError', errorMessage: expect.stringContaining("'jose'") });
  });

  it('runs that same bundle once the package is installed beside it', async () => {
    const repaired = withoutJose('authorizer-with-jose-beside');
    const bundle = await repaired.deploy();
    await mkdir(join(bundle.folder, 'node_modules'), { recursive: true });
    await symlink(join(PROJECT_ROOT, 'node_modules', 'jose'), join(bundle.folder, 'node_modules', 'jose'), 'dir');

    const invocation = await deployed.invoke(repaired.fn, bundle, await authorizerEvent(parent.token));

    expect((resultOf(invocation) as APIGatewayAuthorizerResult).policyDocument.Statement[0]?.Effect).toBe('Allow');
  });
});
