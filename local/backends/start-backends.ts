import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { integerEnv } from '../../functions/shared/config';
import { type BackendChild, isCrash } from './child-process';
import { BACKEND_ENV } from './backend-env';
import { BACKEND_KINDS, type BackendKind } from './backend-kinds';
import { DATA_DIR_LAYOUT } from './data-dir-layout';
import { BACKEND_TIMEOUTS } from './timeouts';
import { startDynamoDbLocal } from './dynamodb-local';
import { BackendsAlreadyRunningError, LocalBackendError } from './errors';
import { startLocalS3 } from './local-s3';
import { registerCleanup } from './process-cleanup';
import { driftWarnings, provisionResources } from './provisioning';
import type { NamingOptions } from './resource-names';
import { type BackendsState, describeState, findRunningBackends, newState, removeStateSync, writeState } from './state-file';
import { withStartLock } from './start-lock';

/**
 * DynamoDB Local and the local S3 for one data directory: started as children, or taken from
 * bring-your-own endpoints (`DYNAMODB_ENDPOINT`, `S3_ENDPOINT`), or reused from another process.
 */

/** Options of {@link startBackends}. */
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
  readonly timeoutMs?: number;
  /** Where one-line warnings go; stderr by default. */
  readonly warn?: (message: string) => void;
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

type Endpoints = Partial<Record<BackendKind, string>>;

const writeWarning = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

/** Endpoints given by the environment: those backends are not started but still provisioned. */
function bringYourOwnEndpoints(): Endpoints {
  return {
    dynamodb: process.env[BACKEND_ENV.dynamodbEndpoint] || undefined,
    s3: process.env[BACKEND_ENV.s3Endpoint] || undefined,
  };
}

function startChild(kind: BackendKind, options: StartBackendsOptions): Promise<BackendChild> {
  const dataDir = resolve(options.dataDir);
  if (kind === 'dynamodb') {
    return startDynamoDbLocal({
      inMemory: options.inMemory,
      dbPath: join(dataDir, DATA_DIR_LAYOUT.dynamodb),
      port: options.ports?.dynamodb ?? integerEnv(BACKEND_ENV.dynamodbPort, 0),
      java: options.java,
      timeoutMs: options.timeoutMs,
      warn: options.warn ?? writeWarning,
    });
  }
  return startLocalS3({ directory: join(dataDir, DATA_DIR_LAYOUT.s3), port: options.ports?.s3 ?? integerEnv(BACKEND_ENV.s3Port, 0), timeoutMs: options.timeoutMs });
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

async function provision(endpoints: Record<BackendKind, string>, options: StartBackendsOptions): Promise<void> {
  if (options.provision === false) return;
  try {
    const report = await provisionResources({ dynamodbEndpoint: endpoints.dynamodb, s3Endpoint: endpoints.s3 }, options.naming);
    for (const warning of driftWarnings(report)) (options.warn ?? writeWarning)(warning);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new LocalBackendError(`Could not create the tables and bucket (DynamoDB ${endpoints.dynamodb}, S3 ${endpoints.s3}): ${reason}`, { cause: error });
  }
}

/** Starts what is missing, provisions, records the state file and returns the handle. Call under the lock. */
async function launch(options: StartBackendsOptions, given: Endpoints, recordState: boolean): Promise<LocalBackends> {
  const missing = (Object.keys(BACKEND_KINDS) as BackendKind[]).filter((kind) => given[kind] === undefined);
  const children = await startChildren(missing, options);
  const endpoints = {
    dynamodb: given.dynamodb ?? children.get('dynamodb')?.endpoint ?? '',
    s3: given.s3 ?? children.get('s3')?.endpoint ?? '',
  };
  const stopChildren = () => Promise.all([...children.values()].map((child) => child.stop())).then(() => undefined);
  try {
    await provision(endpoints, options);
  } catch (error) {
    await stopChildren();
    throw error;
  }
  const state = recordState ? await record(options.dataDir, endpoints, children) : undefined;
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

async function record(dataDir: string, endpoints: Record<BackendKind, string>, children: Map<BackendKind, BackendChild>): Promise<BackendsState> {
  const entry = (kind: BackendKind) => ({ endpoint: endpoints[kind], pid: children.get(kind)?.pid ?? null });
  const state = newState(resolve(dataDir), { dynamodb: entry('dynamodb'), s3: entry('s3') });
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

/**
 * Starts DynamoDB Local and the local S3 for `dataDir` (each unless its endpoint is given by
 * `DYNAMODB_ENDPOINT` / `S3_ENDPOINT`), creates the tables and bucket where missing, and records
 * the backends in `<dataDir>/backends.json` for other processes. Throws
 * {@link BackendsAlreadyRunningError} when running backends already serve `dataDir`.
 */
export async function startBackends(options: StartBackendsOptions): Promise<LocalBackends> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  return withStartLock(dataDir, options.timeoutMs ?? BACKEND_TIMEOUTS.start, async () => {
    const running = await findRunningBackends(dataDir);
    const given = bringYourOwnEndpoints();
    const needsChild = given.dynamodb === undefined || given.s3 === undefined;
    if (running && needsChild) throw new BackendsAlreadyRunningError(dataDir, describeState(running));
    return launch({ ...options, dataDir }, given, running === undefined);
  });
}

/**
 * For short-lived processes (the CLI, `invoke`): the backends already running on `dataDir` if any
 * (their `stop()` leaves them running), else backends started for the duration of the process
 * (their `stop()` stops only what this call started). Bring-your-own endpoints win either way.
 */
export async function connectOrStartBackends(dataDir: string, options: Omit<StartBackendsOptions, 'dataDir'> = {}): Promise<LocalBackends> {
  const directory = resolve(dataDir);
  await mkdir(directory, { recursive: true });
  return withStartLock(directory, options.timeoutMs ?? BACKEND_TIMEOUTS.start, async () => {
    const running = await findRunningBackends(directory);
    const given = bringYourOwnEndpoints();
    if (running === undefined) return launch({ ...options, dataDir: directory }, given, true);
    const endpoints = {
      dynamodb: given.dynamodb ?? running.backends.dynamodb.endpoint,
      s3: given.s3 ?? running.backends.s3.endpoint,
    };
    // Idempotent, and needed when this process uses another access key id (another database).
    await provision(endpoints, { ...options, dataDir: directory });
    return { dynamodbEndpoint: endpoints.dynamodb, s3Endpoint: endpoints.s3, started: [], reused: true, stop: async () => undefined };
  });
}
