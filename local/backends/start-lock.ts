import { open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR_LAYOUT } from './data-dir-layout';
import { BACKEND_TIMEOUTS } from './timeouts';
import { LocalBackendError } from './errors';
import { isProcessAlive } from './ports';

/**
 * A lock file that serializes start-ups on one data directory: two commands started at the same
 * moment must not both launch DynamoDB Local on the same database files. The second one waits,
 * then finds the first one's backends in the state file.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function tryAcquire(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(String(process.pid));
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function holderOf(path: string): Promise<number | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  const pid = Number(text);
  return text === undefined || !Number.isSafeInteger(pid) || pid <= 0 ? undefined : pid;
}

/**
 * Runs `work` while holding the start-up lock of `dataDir`; a lock left by a dead process is taken
 * over. `onWait` is told once, with the holder's pid, when another process holds the lock.
 */
export async function withStartLock<T>(dataDir: string, timeoutMs: number, work: () => Promise<T>, onWait: (holder: number | undefined) => void = () => undefined): Promise<T> {
  const path = join(dataDir, DATA_DIR_LAYOUT.lockFile);
  const deadline = Date.now() + timeoutMs;
  let waiting = false;
  while (!(await tryAcquire(path))) {
    const holder = await holderOf(path);
    // An empty file is a holder between open() and write(): wait for it like for a live one.
    if (holder !== undefined && !isProcessAlive(holder)) {
      await rm(path, { force: true });
      continue;
    }
    if (!waiting) onWait(holder);
    waiting = true;
    if (Date.now() > deadline) {
      throw new LocalBackendError(`Process ${holder ?? '?'} has been starting the backends of ${dataDir} for too long: stop it, or remove ${path} if it is gone.`);
    }
    await sleep(BACKEND_TIMEOUTS.lockPoll);
  }
  try {
    return await work();
  } finally {
    await rm(path, { force: true });
  }
}
