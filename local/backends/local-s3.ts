import { mkdir } from 'node:fs/promises';
import { BACKEND_KINDS } from './backend-kinds';
import { type BackendChild, startBackendChild } from './child-process';
import { PROJECT_ROOT, S3_SERVER_SCRIPT } from './project-paths';

/**
 * The local S3 (s3rver) as a child process, on 127.0.0.1 only.
 */

/** Options of {@link startLocalS3}. */
export interface LocalS3Options {
  /** Folder of the buckets and objects. */
  readonly directory: string;
  /** A fixed port; 0 or absent picks a free one. */
  readonly port?: number;
  readonly timeoutMs?: number;
}

/**
 * Starts s3rver and resolves once it listens. It runs in its own Node process because it needs
 * `--openssl-legacy-provider` (without it, listing past the first page fails), which this process
 * should not have to be started with.
 */
export async function startLocalS3(options: LocalS3Options): Promise<BackendChild> {
  await mkdir(options.directory, { recursive: true });
  const port = options.port ?? 0;
  return startBackendChild({
    name: BACKEND_KINDS.s3,
    command: process.execPath,
    args: ['--openssl-legacy-provider', '--import', 'tsx', S3_SERVER_SCRIPT, '--port', String(port), '--directory', options.directory],
    cwd: PROJECT_ROOT,
    port: port || undefined,
    timeoutMs: options.timeoutMs,
  });
}
