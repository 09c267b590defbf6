import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BACKEND_KINDS, type BackendKind } from './backend-kinds';
import { DATA_DIR_LAYOUT } from './data-dir-layout';
import { BACKEND_TIMEOUTS } from './timeouts';
import { LocalBackendError } from './errors';
import { endpointAnswers, isProcessAlive } from './ports';

/**
 * `<dataDir>/backends.json`: which backends serve a data directory, so that other processes on
 * the same DATA_DIR (the CLI, `invoke`) reuse them instead of starting a second DynamoDB Local on
 * the same database files.
 */

/** One backend in the state file; `pid` is null for a bring-your-own endpoint. */
export interface BackendRecord {
  readonly endpoint: string;
  readonly pid: number | null;
}

/** The content of the state file. */
export interface BackendsState {
  readonly version: 1;
  /** Distinguishes this start from a later one, so an owner never removes another's record. */
  readonly id: string;
  readonly ownerPid: number;
  /** What runs the back-ends ("npm start"), for other processes' messages; absent in older files. */
  readonly owner?: string;
  readonly dataDir: string;
  readonly startedAt: string;
  readonly backends: Readonly<Record<BackendKind, BackendRecord>>;
}

/** Path of the state file of a data directory. */
export function stateFilePath(dataDir: string): string {
  return join(dataDir, DATA_DIR_LAYOUT.stateFile);
}

/** A new state record owned by this process; `owner` says what it is ("npm start"). */
export function newState(dataDir: string, backends: Record<BackendKind, BackendRecord>, owner?: string): BackendsState {
  return { version: 1, id: randomUUID(), ownerPid: process.pid, ...(owner === undefined ? {} : { owner }), dataDir, startedAt: new Date().toISOString(), backends };
}

/** Writes the state file atomically: readers see the old content or the new, never half of it. */
export async function writeState(state: BackendsState): Promise<void> {
  const path = stateFilePath(state.dataDir);
  const partial = `${path}.${process.pid}.tmp`;
  await writeFile(partial, `${JSON.stringify(state, null, 2)}\n`);
  await rename(partial, path);
}

function parseState(text: string): BackendsState | undefined {
  try {
    const state = JSON.parse(text) as BackendsState;
    return state.version === 1 && state.backends?.dynamodb && state.backends?.s3 ? state : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the state file if it still holds `id` (synchronous: it also runs on process exit). */
export function removeStateSync(dataDir: string, id: string): void {
  const path = stateFilePath(dataDir);
  try {
    if (parseState(readFileSync(path, 'utf8'))?.id === id) unlinkSync(path);
  } catch {
    // Already gone: nothing to clean up.
  }
}

async function isBackendLive(record: BackendRecord): Promise<boolean> {
  if (record.pid !== null && !isProcessAlive(record.pid)) return false;
  return endpointAnswers(record.endpoint, BACKEND_TIMEOUTS.probe);
}

function describeProcesses(state: BackendsState): string {
  const children = (Object.keys(BACKEND_KINDS) as BackendKind[])
    .filter((kind) => state.backends[kind].pid !== null)
    .map((kind) => `${BACKEND_KINDS[kind]} pid ${state.backends[kind].pid} at ${state.backends[kind].endpoint}`);
  return [...children, `started by pid ${state.ownerPid}`].join(', ');
}

/**
 * The backends recorded for a data directory if they are all running and answering. A record whose
 * processes are all gone is stale and removed. A record only partly running (a child alive without
 * its owner or sibling) is an error: starting anew would put a second server on the same files.
 */
export async function findRunningBackends(dataDir: string): Promise<BackendsState | undefined> {
  const text = await readFile(stateFilePath(dataDir), 'utf8').catch(() => undefined);
  const state = text === undefined ? undefined : parseState(text);
  if (state === undefined) {
    if (text !== undefined) await rm(stateFilePath(dataDir), { force: true });
    return undefined;
  }
  const records = Object.values(state.backends);
  const live = await Promise.all(records.map(isBackendLive));
  const ownerAlive = isProcessAlive(state.ownerPid);
  if (ownerAlive && live.every(Boolean)) return state;
  const childAlive = records.some((record) => record.pid !== null && isProcessAlive(record.pid));
  if (!childAlive) {
    await rm(stateFilePath(dataDir), { force: true });
    return undefined;
  }
  throw new LocalBackendError(`The backends of ${dataDir} are only partly running (${describeProcesses(state)}): stop those processes, then retry.`);
}

/** A one-line description of recorded backends, for messages. */
export function describeState(state: BackendsState): string {
  return describeProcesses(state);
}
