import { join, resolve } from 'node:path';
import { readSettings } from '../local-settings';
import { BACKEND_ENV, backendPorts } from './backend-env';
import { BACKEND_KINDS, type BackendKind } from './backend-kinds';
import { type BackendChild, isCrash } from './child-process';
import { DATA_DIR_LAYOUT } from './data-dir-layout';
import { startDynamoDbLocal } from './dynamodb-local';
import { LocalBackendError } from './errors';
import { startLocalS3 } from './local-s3';
import { registerCleanup } from './process-cleanup';
import type { NamingOptions } from './resource-names';
import { type BackendsState, newState, removeStateSync, writeState } from './state-file';
import { noStatus, reportStep, type StatusLine } from './startup-status';

/**
 * Launching the back-ends of one data directory: the children that have no endpoint yet, the
 * tables and the bucket, and the state file that lets other processes reuse them.
 */

/** Options of `startBackends` and of a launch. */
export interface StartBackendsOptions {
  /** Where the data (`dynamodb/`, `s3/`) and the state file (`backends.json`) live. */
  readonly dataDir: string;
  /** Keep DynamoDB data in memory (tests); S3 objects still go under `<dataDir>/s3`. */
  readonly inMemory?: boolean;
  /** Fixed ports; by default `DYNAMODB_LOCAL_PORT` / `S3_LOCAL_PORT`, else free ones. */
  readonly ports?: { readonly dynamodb?: number; readonly s3?: number };
  /** Create the tables and the bucket (default true). */
  readonly provision?: boolean;
  /** Names of the provisioned tables and bucket; by default those the functions look up. */
  readonly naming?: NamingOptions;
  /** The `java` command; defaults to `$JAVA_HOME/bin/java` or `java`. */
  readonly java?: string;
  /** DynamoDB Local's JIT: `quick` (default) for a fast start, `full` for long write-heavy runs (the test suite). */
  readonly compiler?: 'quick' | 'full';
  readonly timeoutMs?: number;
  /** Where one-line warnings go; stderr by default. */
  readonly warn?: (message: string) => void;
  /** Where start-up steps are reported ("starting DynamoDB Local…"); silent by default. */
  readonly status?: StatusLine;
  /** What runs these back-ends, for the state file and other processes' messages ("npm start"). */
  readonly owner?: string;
}

/** Backends a process can use, and how to let go of them. */
export interface LocalBackends {
  readonly dynamodbEndpoint: string;
  readonly s3Endpoint: string;
  /** The children this call started: `stop()` stops these and nothing else. */
  readonly started: readonly BackendKind[];
  /** True when the endpoints are those of backends another process runs on the same data directory. */
  readonly reused: boolean;
  stop(): Promise<void>;
}

/** Endpoints known before a launch, by back-end: given by the environment or by running back-ends. */
export type Endpoints = Partial<Record<BackendKind, string>>;

/** How a bring-your-own back-end is named in messages: it may be LocalStack as well as DynamoDB Local. */
const BRING_YOUR_OWN = {
  dynamodb: { service: 'DynamoDB', variable: BACKEND_ENV.dynamodbEndpoint },
  s3: { service: 'S3', variable: BACKEND_ENV.s3Endpoint },
} as const satisfies Record<BackendKind, unknown>;

/** The provisioning module, which loads the AWS SDK: loaded while the children boot, not before. */
type Provisioning = typeof import('./provisioning');

const writeWarning = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

function startChild(kind: BackendKind, options: StartBackendsOptions): Promise<BackendChild> {
  const dataDir = resolve(options.dataDir);
  const name = BACKEND_KINDS[kind];
  const start = (): Promise<BackendChild> =>
    kind === 'dynamodb'
      ? startDynamoDbLocal({
          inMemory: options.inMemory,
          dbPath: join(dataDir, DATA_DIR_LAYOUT.dynamodb),
          port: options.ports?.dynamodb ?? readSettings(backendPorts).dynamodb,
          java: options.java,
          compiler: options.compiler,
          timeoutMs: options.timeoutMs,
          warn: options.warn ?? writeWarning,
          status: options.status,
        })
      : startLocalS3({ directory: join(dataDir, DATA_DIR_LAYOUT.s3), port: options.ports?.s3 ?? readSettings(backendPorts).s3, timeoutMs: options.timeoutMs });
  return reportStep(options.status ?? noStatus, { activity: `starting ${name}`, done: (child, took) => `${name} ready on ${child.endpoint} in ${took}` }, start);
}

/** Starts the children that have no endpoint yet, in parallel; if one fails, the others are stopped. */
async function startChildren(missing: readonly BackendKind[], options: StartBackendsOptions): Promise<Map<BackendKind, BackendChild>> {
  const settled = await Promise.allSettled(missing.map((kind) => startChild(kind, options)));
  const children = new Map<BackendKind, BackendChild>();
  settled.forEach((outcome, index) => {
    if (outcome.status === 'fulfilled') children.set(missing[index] as BackendKind, outcome.value);
  });
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure) {
    await Promise.all([...children.values()].map((child) => child.stop()));
    throw failure.reason;
  }
  return children;
}

function describeCreated(created: readonly string[]): string {
  return created.length === 0 ? 'all there already' : `created ${created.join(', ')}`;
}

/** Creates the tables and the bucket where missing, and warns about tables that differ from their definition. */
export async function provision(endpoints: Record<BackendKind, string>, options: StartBackendsOptions, module: Promise<Provisioning> = import('./provisioning')): Promise<void> {
  if (options.provision === false) return;
  const { driftWarnings, provisionResources } = await module;
  try {
    const report = await reportStep(
      options.status ?? noStatus,
      {
        activity: 'creating the tables and the bucket',
        done: (done, took) => `tables and bucket ready in ${took} (${describeCreated([...done.tables, done.bucket].filter((item) => item.outcome === 'created').map((item) => item.name))})`,
      },
      () => provisionResources({ dynamodbEndpoint: endpoints.dynamodb, s3Endpoint: endpoints.s3 }, options.naming),
    );
    for (const warning of driftWarnings(report)) (options.warn ?? writeWarning)(warning);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new LocalBackendError(`Could not create the tables and bucket (DynamoDB ${endpoints.dynamodb}, S3 ${endpoints.s3}): ${reason}`, { cause: error });
  }
}

/** Starts what is missing, provisions, records the state file and returns the handle. Call under the lock. */
export async function launch(options: StartBackendsOptions, given: Endpoints, recordState: boolean): Promise<LocalBackends> {
  const missing = (Object.keys(BACKEND_KINDS) as BackendKind[]).filter((kind) => given[kind] === undefined);
  for (const kind of Object.keys(given) as BackendKind[]) {
    if (given[kind] !== undefined) (options.status ?? noStatus)(`using ${BRING_YOUR_OWN[kind].service} at ${given[kind]} (${BRING_YOUR_OWN[kind].variable})`);
  }
  const childrenReady = startChildren(missing, options);
  // The children are spawned by now; the SDK loads while they boot.
  const provisioning = import('./provisioning');
  provisioning.catch(() => undefined);
  const children = await childrenReady;
  const endpoints = {
    dynamodb: given.dynamodb ?? children.get('dynamodb')?.endpoint ?? '',
    s3: given.s3 ?? children.get('s3')?.endpoint ?? '',
  };
  const stopChildren = () => Promise.all([...children.values()].map((child) => child.stop())).then(() => undefined);
  try {
    await provision(endpoints, options, provisioning);
  } catch (error) {
    await stopChildren();
    throw error;
  }
  const state = recordState ? await record(options, endpoints, children) : undefined;
  const unregister = state ? registerCleanup(() => removeStateSync(state.dataDir, state.id)) : () => undefined;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // The record goes first, so nobody picks up backends that are about to stop.
      unregister();
      if (state) removeStateSync(state.dataDir, state.id);
      await stopChildren();
    })();
    return stopping;
  };
  warnOnUnexpectedExit(children, () => stopping !== undefined, options.warn ?? writeWarning);
  return { dynamodbEndpoint: endpoints.dynamodb, s3Endpoint: endpoints.s3, started: [...children.keys()], reused: false, stop };
}

async function record(options: StartBackendsOptions, endpoints: Record<BackendKind, string>, children: Map<BackendKind, BackendChild>): Promise<BackendsState> {
  const entry = (kind: BackendKind) => ({ endpoint: endpoints[kind], pid: children.get(kind)?.pid ?? null });
  const state = newState(resolve(options.dataDir), { dynamodb: entry('dynamodb'), s3: entry('s3') }, options.owner);
  await writeState(state);
  return state;
}

function warnOnUnexpectedExit(children: Map<BackendKind, BackendChild>, stopping: () => boolean, warn: (message: string) => void): void {
  for (const [kind, child] of children) {
    void child.exited.then((exit) => {
      if (!stopping() && isCrash(exit)) warn(`${BACKEND_KINDS[kind]} (pid ${child.pid}) exited unexpectedly (${exit.signal ?? `code ${exit.code}`}); restart to get it back.`);
    });
  }
}
