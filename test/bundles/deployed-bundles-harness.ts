import { avatarBucketName, dataConfig, tableName } from '../../functions/shared/config/data-config';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { build } from 'esbuild';
import { avatarConfig } from '../../functions/avatars/avatar-config';
import { createFeedWriters } from '../../functions/media-log/feed/apply-changes';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import type { RouteName } from '../../functions/routes';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { tables } from '../../functions/shared/tables';
import { DEPLOYED_SDK_SOURCE, PROJECT_ROOT } from '../../lib/function-bundling';
import { lambdaContext } from '../../local/gateway/lambda-context';
import { buildProxyEvent } from '../../local/gateway/proxy-event';
import { matchRoute } from '../../local/gateway/route-matcher';
import { authorizerContextFor } from '../../local/invoke/authorizer-context';
import { deployedFunctions, type DeployedFunction, type OptionsChange, type WrittenBundle } from '../../local/lambda/function-bundles';
import { createLambdaLayout, deployToLayout, providesSdkFor, type LambdaLayout } from '../../local/lambda/lambda-layout';
import { DEPLOYED_SETTINGS, invokeBundle, lambdaEnvironment, type BundleInvocation } from '../../local/lambda/lambda-process';
import { assertMatchesContract, type ContractResponse } from '../harness/contract';
import { localRequest, testSigningKey, type InvokeRequest } from '../harness/invoke';
import type { TestUser } from '../harness/users';

/**
 * The deployed bundles of a test file: every function bundled once with the stack's options into a
 * Lambda-like layout outside the project (bench/lambda-layout.ts), and invoked there, each call in a
 * fresh Node process that loads the bundle as the Lambda runtime does, against this file's tables
 * and bucket. The processes get the loopback tripwire of the fetch tests preloaded: a bundle that
 * tries to reach anything but this machine fails instead of sending a packet.
 */

/** The test's deadline for one invocation, process start included. */
const INVOCATION_TIMEOUT_MS = 30_000;

/** What a file's hooks set up; usable once its `beforeAll` has run. */
export interface DeployedBundles {
  /** The layout the bundles live in. */
  readonly layout: LambdaLayout;
  /** The bundle of every deployed function, by name. */
  readonly bundles: ReadonlyMap<string, WrittenBundle>;
  /** Bundle `fn` into the layout, `adjust` changing the stack's options (for deliberately broken bundles). */
  deploy(fn: DeployedFunction, adjust: OptionsChange): Promise<WrittenBundle>;
  /** Invoke `bundle` once on `event`, with `configuration` over this file's. */
  invoke(fn: DeployedFunction, bundle: WrittenBundle, event: unknown, configuration?: Readonly<Record<string, string>>): Promise<BundleInvocation>;
}

/** The one-file bundle of the fetch tests' tripwire, to preload in every function process. */
async function writeTripwire(folder: string): Promise<string> {
  const outfile = join(folder, 'loopback-tripwire.mjs');
  const tripwire = join(PROJECT_ROOT, 'test/avatars/fetch/connection-tripwire.ts');
  await build({
    stdin: { contents: `import { installTripwire } from ${JSON.stringify(tripwire)};\ninstallTripwire();\n`, resolveDir: PROJECT_ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

/** What the stack would configure, pointing at this file's back-ends, tables, bucket and signing key. */
async function fileConfiguration(tripwire: string): Promise<Record<string, string>> {
  // This process's own data configuration, which the test set-up points at this file's database and bucket.
  const { region, accessKey, dynamodbEndpoint, s3Endpoint } = dataConfig();
  if (accessKey?.secret === undefined || dynamodbEndpoint === undefined || s3Endpoint === undefined) throw new Error('The test set-up gives every file an access key and both endpoints.');
  return {
    AWS_REGION: region,
    AWS_ACCESS_KEY_ID: accessKey.id,
    AWS_SECRET_ACCESS_KEY: accessKey.secret,
    DYNAMODB_ENDPOINT: dynamodbEndpoint,
    S3_ENDPOINT: s3Endpoint,
    ...Object.fromEntries(tables.map((table) => [table.nameEnv, tableName(table)])),
    [avatarBucket.nameEnv]: avatarBucketName(),
    AVATAR_PUBLIC_BASE_URL: avatarConfig().publicBaseUrl,
    AUTH_JWKS_FILE: (await testSigningKey()).jwksFile,
    CURSOR_SECRET: 'deployed-bundles-test-cursor-signing-key',
    ...DEPLOYED_SETTINGS,
    NODE_OPTIONS: `${DEPLOYED_SETTINGS.NODE_OPTIONS} --import=${pathToFileURL(tripwire).href}`,
  };
}

/** The context's data fields and deadline: functions cannot cross into the process. */
function contextFields(name: string): Record<string, unknown> & { deadlineMs: number } {
  const { getRemainingTimeInMillis, done: _done, fail: _fail, succeed: _succeed, ...fields } = lambdaContext(name, INVOCATION_TIMEOUT_MS);
  return { ...fields, deadlineMs: Date.now() + getRemainingTimeInMillis() };
}

/**
 * Registers the hooks that bundle every deployed function (or those named in `only`) once for the
 * calling test file, with the stack's options changed by `adjust` (a bundle built with tracing on).
 */
export function useDeployedBundles(only?: readonly string[], adjust?: OptionsChange): DeployedBundles {
  const bundles = new Map<string, WrittenBundle>();
  let configuration: Record<string, string> = {};
  const state = {
    layout: undefined as unknown as LambdaLayout,
    bundles,
    deploy: (fn: DeployedFunction, adjust: OptionsChange) => deployToLayout(state.layout, fn, DEPLOYED_SDK_SOURCE, adjust),
    invoke: (fn: DeployedFunction, bundle: WrittenBundle, event: unknown, extra: Readonly<Record<string, string>> = {}) =>
      invokeBundle(bundle.folder, lambdaEnvironment(fn.name, bundle.folder, { ...configuration, ...extra }), { event, context: contextFields(fn.name) }, INVOCATION_TIMEOUT_MS),
  };
  beforeAll(async () => {
    state.layout = await createLambdaLayout({ runtimeSdk: providesSdkFor(DEPLOYED_SDK_SOURCE) });
    configuration = await fileConfiguration(await writeTripwire(state.layout.root));
    // esbuild runs the builds in parallel itself; one at a time would take several times longer.
    const wanted = deployedFunctions().filter((fn) => only === undefined || only.includes(fn.name));
    await Promise.all(wanted.map(async (fn) => bundles.set(fn.name, await deployToLayout(state.layout, fn, DEPLOYED_SDK_SOURCE, adjust))));
  }, 120_000);
  afterAll(async () => {
    await state.layout?.remove();
  });
  return state;
}

/** The invocation's result, or an error that says what failed and shows the function's logs. */
export function resultOf(invocation: BundleInvocation): unknown {
  if (invocation.error) {
    const { phase, errorType, errorMessage, stack } = invocation.error;
    throw new Error(`${phase} failed: ${errorType}: ${errorMessage}\n${stack}\nlogs:\n${invocation.stdout}${invocation.stderr}`);
  }
  return invocation.result;
}

/**
 * The REST proxy event the local gateway builds for `request` (the builder `invoke --generate-event`
 * uses), with the authorizer context the real authorizer gives `user` when there is one.
 */
export async function proxyEvent(name: RouteName, request: InvokeRequest, user?: TestUser): Promise<APIGatewayProxyEvent> {
  const local = localRequest(name, request);
  const match = matchRoute(local.method, local.path);
  if (!match) throw new Error(`No route matches ${local.method} ${local.path}.`);
  const event = buildProxyEvent(local, match, null);
  if (!user) return event;
  const authorizer = await authorizerContextFor(user.record.id, event, await testSigningKey());
  return { ...event, requestContext: { ...event.requestContext, authorizer } };
}

/** A route's answer as a client sees it, checked against the OpenAPI document. */
export function routeAnswer(name: RouteName, invocation: BundleInvocation): ContractResponse & { readonly body: any } {
  const result = resultOf(invocation) as APIGatewayProxyResult;
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([header, value]) => [header.toLowerCase(), String(value)]));
  const json = /json/.test(headers['content-type'] ?? '') && result.body !== '';
  const answer = { status: result.statusCode, headers, body: json ? JSON.parse(result.body) : result.body };
  assertMatchesContract(name, answer);
  return answer;
}

/** The event EventBridge sends a scheduled rule's target. */
export function scheduledEvent(now = new Date()): Record<string, unknown> {
  return { version: '0', id: crypto.randomUUID(), 'detail-type': 'Scheduled Event', source: 'aws.events', account: '123456789012', time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'), region: 'us-east-1', resources: ['arn:aws:events:us-east-1:123456789012:rule/reconcileAvatarObjects'], detail: {} };
}

/** The feed's writer of entries, on this file's tables: stores what a listing, the fold or the notifier then reads. */
export function entryWriter() {
  return createFeedWriters(getDocumentClient()).entries;
}
