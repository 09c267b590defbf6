import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { LocalBackendError } from './errors';

/**
 * Makes the data directory ready before any back-end starts: created where missing, and known to
 * be writable, so a bad `DATA_DIR` is one line instead of a Java stack trace from DynamoDB Local.
 */

/** `DATA_DIR` names a place this process cannot keep its data in. */
export class DataDirError extends LocalBackendError {
  public constructor(dataDir: string, reason: string, cause?: unknown) {
    super(`DATA_DIR ${dataDir} cannot be used: ${reason}; set DATA_DIR to a folder you can write to.`, { cause });
    this.name = 'DataDirError';
  }
}

const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'part of that path is a file',
  ENOENT: 'that place cannot hold folders',
  ENOSPC: 'the disk is full',
};

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code ?? '';
  return REASONS[code] ?? `${code || (error as Error).message}`;
}

async function kindOf(path: string): Promise<'folder' | 'other' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'folder' : 'other';
  } catch (error) {
    // ENOTDIR: a file on the way; looking further up names it.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return 'missing';
    throw error;
  }
}

/**
 * Creates the missing folders of `dataDir` one level at a time. Not `mkdir -p`: Node's recursive
 * mkdir never returns on some paths where a folder cannot be made (under /proc, for one).
 */
async function createFolders(dataDir: string): Promise<void> {
  const missing: string[] = [];
  let current = dataDir;
  for (;;) {
    const kind = await kindOf(current);
    if (kind === 'other') throw new DataDirError(dataDir, current === dataDir ? 'it is a file, not a folder' : `${current} is a file, not a folder`);
    if (kind === 'folder') break;
    missing.unshift(current);
    if (dirname(current) === current) break;
    current = dirname(current);
  }
  for (const folder of missing) {
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}

/** Creates `dataDir` if missing and checks that files can be written there; throws {@link DataDirError}. */
export async function prepareDataDir(dataDir: string): Promise<void> {
  try {
    await createFolders(dataDir);
    // Permission bits do not tell (root ignores them, some file systems refuse all writes): try it.
    const probe = join(dataDir, `.write-check-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe, { force: true });
  } catch (error) {
    if (error instanceof DataDirError) throw error;
    throw new DataDirError(dataDir, reasonOf(error), error);
  }
}
