import { mkdir } from 'node:fs/promises';
import { BACKEND_KINDS } from './backend-kinds';
import { LOOPBACK_HOST } from './ports';
import { BACKEND_TIMEOUTS } from './timeouts';
import { type BackendChild, startBackendChild } from './child-process';
import { BackendStartError, JavaNotFoundError } from './errors';
import { javaCommand, resolveJavaLaunch } from './java-launcher';
import { endpointAnswers, findFreePort } from './ports';
import type { StatusLine } from './startup-status';

/**
 * DynamoDB Local as a child process, on 127.0.0.1 only.
 */

/** Options of {@link startDynamoDbLocal}. */
export interface DynamoDbLocalOptions {
  /** Folder of the database files; ignored with `inMemory`. */
  readonly dbPath?: string;
  /** Keep everything in memory (tests): nothing is written, start-up is faster. */
  readonly inMemory?: boolean;
  /** A fixed port; 0 or absent picks a free one. */
  readonly port?: number;
  /** The `java` command; defaults to `$JAVA_HOME/bin/java` or `java`. */
  readonly java?: string;
  readonly timeoutMs?: number;
  readonly warn?: (message: string) => void;
  /** Where start-up steps are reported (the first-run compile of the launcher); silent by default. */
  readonly status?: StatusLine;
  /**
   * `quick` (default): the C1 compiler alone, for a fast start. `full`: the JVM's tiered
   * compilation, for long write-heavy runs (a benchmark's seeding): bulk loads run ~1.5× faster.
   */
  readonly compiler?: 'quick' | 'full';
}

/**
 * Starts DynamoDB Local and resolves once it listens. Without `-sharedDb`, each access key id
 * gets its own database: tests use that to isolate test files from one another.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<BackendChild> {
  const java = options.java ?? javaCommand();
  const launch = await resolveJavaLaunch(java, options.warn ?? (() => undefined), options.status);
  // The stock launcher cannot bind port 0 and prints no READY line: pick a port, then poll it.
  const port = launch.mode === 'stock' && !options.port ? await findFreePort() : (options.port ?? 0);
  const storage = options.inMemory ? ['-inMemory'] : ['-dbPath', await ensureDir(options.dbPath)];
  // The C1 compiler alone: the JVM's start-up is most of `npm start`'s CPU, and C2's compiler threads
  // compete for the same cores. Measured here, start-up costs ~30% less CPU and a seed of 300
  // entries is no slower (requests spend their time in SQLite, not in compiled Java).
  // Long write-heavy runs ask for the full compiler: 10k entries bulk-loaded in 98 s instead of 144 s.
  const jit = options.compiler === 'full' ? [] : ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];
  return startBackendChild({
    name: BACKEND_KINDS.dynamodb,
    command: launch.command,
    args: [...jit, ...launch.jvmArgs, '-port', String(port), '-disableTelemetry', ...storage],
    port: port || undefined,
    timeoutMs: options.timeoutMs,
    waitUntilReady: launch.mode === 'stock' ? () => pollUntilAnswering(`http://${LOOPBACK_HOST}:${port}`, options.timeoutMs ?? BACKEND_TIMEOUTS.start) : undefined,
    onSpawnError: (error) =>
      error.code === 'ENOENT' ? new JavaNotFoundError(`no "${java}" command was found`, error) : new BackendStartError(`DynamoDB Local could not be started: ${error.message}.`, error),
    explainFailure: (output) =>
      output.some((line) => line.includes('UnsupportedClassVersionError')) ? new JavaNotFoundError('the installed Java is older than 17') : undefined,
  });
}

async function ensureDir(path: string | undefined): Promise<string> {
  if (path === undefined) throw new BackendStartError('DynamoDB Local needs a dbPath unless it runs in memory.');
  await mkdir(path, { recursive: true });
  return path;
}

async function pollUntilAnswering(endpoint: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await endpointAnswers(endpoint, BACKEND_TIMEOUTS.probe)) return endpoint;
    await new Promise((resolve) => setTimeout(resolve, BACKEND_TIMEOUTS.lockPoll));
  }
  throw new BackendStartError(`DynamoDB Local did not answer on ${endpoint} within ${timeoutMs / 1000} s.`);
}
