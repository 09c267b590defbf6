import { resolve } from 'node:path';
import { BACKEND_ENV } from './backend-env';
import { prepareDataDir } from './data-dir';
import { BackendsAlreadyRunningError } from './errors';
import { type Endpoints, launch, type LocalBackends, provision, type StartBackendsOptions } from './launch-backends';
import { type BackendsState, describeState, findRunningBackends } from './state-file';
import { noStatus } from './startup-status';
import { withStartLock } from './start-lock';
import { BACKEND_TIMEOUTS } from './timeouts';

/**
 * DynamoDB Local and the local S3 for one data directory: started as children, or taken from
 * bring-your-own endpoints (`DYNAMODB_ENDPOINT`, `S3_ENDPOINT`), or reused from another process.
 */

export type { LocalBackends, StartBackendsOptions } from './launch-backends';

/** Endpoints given by the environment: those backends are not started but still provisioned. */
function bringYourOwnEndpoints(): Endpoints {
  return {
    dynamodb: process.env[BACKEND_ENV.dynamodbEndpoint] || undefined,
    s3: process.env[BACKEND_ENV.s3Endpoint] || undefined,
  };
}

/** Holds the start-up lock of `dataDir`, saying so when another process holds it first. */
function underLock<T>(dataDir: string, options: Omit<StartBackendsOptions, 'dataDir'>, work: () => Promise<T>): Promise<T> {
  const status = options.status ?? noStatus;
  return withStartLock(dataDir, options.timeoutMs ?? BACKEND_TIMEOUTS.start, work, (holder) =>
    status(`waiting for process ${holder ?? '?'}, which is starting the back-ends of ${dataDir}…`),
  );
}

/**
 * Starts DynamoDB Local and the local S3 for `dataDir` (each unless its endpoint is given by
 * `DYNAMODB_ENDPOINT` / `S3_ENDPOINT`), creates the tables and bucket where missing, and records
 * the backends in `<dataDir>/backends.json` for other processes. Throws
 * {@link BackendsAlreadyRunningError} when running backends already serve `dataDir`.
 */
export async function startBackends(options: StartBackendsOptions): Promise<LocalBackends> {
  const dataDir = resolve(options.dataDir);
  await prepareDataDir(dataDir);
  return underLock(dataDir, options, async () => {
    const running = await findRunningBackends(dataDir);
    const given = bringYourOwnEndpoints();
    const needsChild = given.dynamodb === undefined || given.s3 === undefined;
    if (running && needsChild) throw new BackendsAlreadyRunningError(dataDir, describeState(running));
    return launch({ ...options, dataDir }, given, running === undefined);
  });
}

function describeOwner(state: BackendsState): string {
  return state.owner === undefined ? `process ${state.ownerPid}` : `${state.owner} (pid ${state.ownerPid})`;
}

/**
 * For short-lived processes (the CLI, `invoke`): the backends already running on `dataDir` if any
 * (their `stop()` leaves them running), else backends started for the duration of the process
 * (their `stop()` stops only what this call started). Bring-your-own endpoints win either way.
 */
export async function connectOrStartBackends(dataDir: string, options: Omit<StartBackendsOptions, 'dataDir'> = {}): Promise<LocalBackends> {
  const directory = resolve(dataDir);
  await prepareDataDir(directory);
  return underLock(directory, options, async () => {
    const running = await findRunningBackends(directory);
    const given = bringYourOwnEndpoints();
    if (running === undefined) return launch({ ...options, dataDir: directory }, given, true);
    const endpoints = {
      dynamodb: given.dynamodb ?? running.backends.dynamodb.endpoint,
      s3: given.s3 ?? running.backends.s3.endpoint,
    };
    (options.status ?? noStatus)(`using the back-ends of ${describeOwner(running)} on ${directory}`);
    // Idempotent, and needed when this process uses another access key id (another database).
    await provision(endpoints, { ...options, dataDir: directory, status: noStatus });
    return { dynamodbEndpoint: endpoints.dynamodb, s3Endpoint: endpoints.s3, started: [], reused: true, stop: async () => undefined };
  });
}
