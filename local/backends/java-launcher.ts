import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { BACKEND_ENV } from './backend-env';
import { JavaNotFoundError } from './errors';
import { LAUNCHER_CACHE_DIR, LAUNCHER_CLASS, LAUNCHER_SOURCE, dynamoDbLocalDistribution } from './project-paths';
import { noStatus, reportStep, type StatusLine } from './startup-status';

/**
 * How to run DynamoDB Local on loopback. Our launcher is compiled once into a cache (by the JDK
 * compiler module, run through `java` itself so no `javac` binary is needed): a JVM start then
 * costs ~1 s instead of ~2 s for a single-file source launch, which compiles on every start.
 */

const execFileAsync = promisify(execFile);

/** How the launcher is run; `stock` means DynamoDB Local's own main class, on every interface. */
export type LaunchMode = 'compiled' | 'source' | 'stock';

/** A ready-to-spawn Java command line, minus DynamoDB Local's own arguments. */
export interface JavaLaunch {
  readonly command: string;
  readonly jvmArgs: readonly string[];
  readonly mode: LaunchMode;
}

/** The `java` to run: `$JAVA_HOME/bin/java` when set, else `java` from the PATH. */
export function javaCommand(): string {
  const javaHome = process.env[BACKEND_ENV.javaHome];
  return javaHome ? join(javaHome, 'bin', 'java') : 'java';
}

/**
 * Picks the fastest way to run the loopback launcher with `java`, compiling it into the cache if
 * needed. Falls back to a source launch when the cache is not writable, and to the stock launcher
 * (with `warn`) when the runtime has no compiler module (a JRE without jdk.compiler).
 */
export async function resolveJavaLaunch(java: string, warn: (message: string) => void, status: StatusLine = noStatus): Promise<JavaLaunch> {
  const { jar, libDir } = dynamoDbLocalDistribution();
  // sqlite4java loads its native library from this folder, in memory mode too.
  const base = [`-Djava.library.path=${libDir}`];
  const classPath = [jar, join(libDir, '*')].join(delimiter);
  const cacheDir = await cachedLauncherDir();
  if (existsSync(join(cacheDir, `${LAUNCHER_CLASS}.class`))) {
    return { command: java, jvmArgs: [...base, '-cp', [cacheDir, classPath].join(delimiter), LAUNCHER_CLASS], mode: 'compiled' };
  }
  // A first run compiles the launcher (a few seconds on a busy machine): say so, it is not a hang.
  const compiled = await reportStep(status, COMPILE_STEP, () => compileLauncher(java, classPath, cacheDir));
  if (compiled === 'compiled') {
    return { command: java, jvmArgs: [...base, '-cp', [cacheDir, classPath].join(delimiter), LAUNCHER_CLASS], mode: 'compiled' };
  }
  if (compiled === 'not-writable') {
    return { command: java, jvmArgs: [...base, '-cp', classPath, LAUNCHER_SOURCE], mode: 'source' };
  }
  warn('This Java runtime has no compiler module (jdk.compiler), so DynamoDB Local listens on all interfaces, not only 127.0.0.1: install openjdk-17-jdk-headless to keep it on loopback.');
  return { command: java, jvmArgs: [...base, '-jar', jar], mode: 'stock' };
}

/** The cache folder for the current launcher source: a new source gets a new folder. */
async function cachedLauncherDir(): Promise<string> {
  const digest = createHash('sha256').update(await readFile(LAUNCHER_SOURCE)).digest('hex').slice(0, 16);
  return join(LAUNCHER_CACHE_DIR, digest);
}

type CompileOutcome = 'compiled' | 'not-writable' | 'no-compiler';

const COMPILE_STEP = {
  activity: 'compiling the DynamoDB Local launcher (first run only)',
  done: (outcome: CompileOutcome, took: string) =>
    outcome === 'compiled' ? `DynamoDB Local launcher compiled in ${took}` : `DynamoDB Local launcher not compiled (${outcome}) after ${took}`,
} as const;

async function compileLauncher(java: string, classPath: string, cacheDir: string): Promise<CompileOutcome> {
  let workDir: string;
  try {
    await mkdir(LAUNCHER_CACHE_DIR, { recursive: true });
    workDir = await mkdtemp(join(LAUNCHER_CACHE_DIR, 'build-'));
  } catch {
    return 'not-writable';
  }
  try {
    const compilerArgs = ['-m', 'jdk.compiler/com.sun.tools.javac.Main', '--release', '17', '-cp', classPath, '-d', workDir, LAUNCHER_SOURCE];
    await execFileAsync(java, compilerArgs);
    // Build aside, then rename: a concurrent start sees either no folder or a complete one.
    await rename(workDir, cacheDir).catch(() => undefined);
    return 'compiled';
  } catch (error) {
    return explainCompileFailure(error as NodeJS.ErrnoException & { stderr?: string });
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function explainCompileFailure(error: NodeJS.ErrnoException & { stderr?: string }): CompileOutcome {
  if (error.code === 'ENOENT') throw new JavaNotFoundError(`no "${error.path ?? 'java'}" command was found`, error);
  const stderr = error.stderr ?? '';
  if (/jdk\.compiler/.test(stderr) && /not found/i.test(stderr)) return 'no-compiler';
  if (/release version 17 not supported|invalid (source|target) release/i.test(stderr)) {
    throw new JavaNotFoundError('the installed Java is older than 17', error);
  }
  // Anything else (an odd JDK, a read-only cache) still leaves the source launch to try.
  return 'not-writable';
}
