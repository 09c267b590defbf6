import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { CHILD_SIGNALS, EXIT_PORT_IN_USE } from './child-protocol';
import { BACKEND_TIMEOUTS } from './timeouts';
import { BackendStartError, PortInUseError } from './errors';
import { registerCleanup } from './process-cleanup';

/**
 * Runs a backend as a child process: waits until it is ready, turns early failures into one-line
 * errors, and makes sure it never outlives this process.
 */

/** How to launch a backend child and how to tell that it is ready. */
export interface BackendChildSpec {
  /** Human name used in messages, e.g. "DynamoDB Local". */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** The port asked for, if fixed (for messages). */
  readonly port?: number;
  /** Ready when this resolves to the endpoint; by default, when the child prints `READY <url>`. */
  readonly waitUntilReady?: (child: ChildProcess) => Promise<string>;
  /** Maps a spawn error (e.g. ENOENT) to a clearer one. */
  readonly onSpawnError?: (error: NodeJS.ErrnoException) => Error;
  /** Maps the child's last output lines to a clearer error, when it recognizes them. */
  readonly explainFailure?: (output: readonly string[]) => Error | undefined;
  readonly timeoutMs?: number;
}

/** How a child ended: its exit code, or the signal that ended it. */
export interface ChildExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running backend child. */
export interface BackendChild {
  readonly pid: number;
  readonly endpoint: string;
  /** Resolves when the child has exited, however it ended. */
  readonly exited: Promise<ChildExit>;
  /** SIGTERM, then SIGKILL after a grace period; resolves once the child is gone. */
  stop(): Promise<void>;
}

const OUTPUT_TAIL_LINES = 20;

/** Starts a backend child and resolves once it is ready. */
export async function startBackendChild(spec: BackendChildSpec): Promise<BackendChild> {
  // stdin stays an open pipe: the children exit when it closes, i.e. when this process is gone.
  const child = spawn(spec.command, [...spec.args], { cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  const output: string[] = [];
  let spawnFailure: NodeJS.ErrnoException | undefined;
  child.once('error', (error: NodeJS.ErrnoException) => {
    spawnFailure = error;
  });
  const exited = trackExit(child);
  const unregister = registerCleanup(() => child.kill('SIGTERM'));
  const readyLine = collectOutput(child, output);
  const timeoutMs = spec.timeoutMs ?? BACKEND_TIMEOUTS.start;
  let timer: NodeJS.Timeout | undefined;
  try {
    const endpoint = await Promise.race([
      spec.waitUntilReady ? spec.waitUntilReady(child) : readyLine,
      exited.then(() => Promise.reject(spawnFailure ? spawnError(spec, spawnFailure) : exitError(spec, child, output))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new BackendStartError(`${spec.name} was not ready within ${timeoutMs / 1000} s${lastLine(output)}.`)), timeoutMs);
      }),
    ]);
    detach(child);
    return { pid: child.pid ?? -1, endpoint, exited, stop: () => stopChild(child, exited, unregister) };
  } catch (error) {
    await stopChild(child, exited, unregister);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

function trackExit(child: ChildProcess): Promise<ChildExit> {
  return new Promise((resolve) => {
    const settle = () => resolve({ code: child.exitCode, signal: child.signalCode });
    // 'close' rather than 'exit': by then the last output lines (the reason it failed) are read.
    child.once('close', settle);
    // A child that never spawned emits 'error' and no 'close'.
    child.once('error', settle);
  });
}

/** Signals that ask a process to stop, and the codes a JVM exits with on them (128 + number). */
const STOP_SIGNALS: readonly string[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const STOPPED_CODES: readonly (number | null)[] = [0, 129, 130, 143];

/**
 * Whether a child ended without being asked to. Ctrl-C reaches the children directly (they share
 * the terminal's process group), possibly before this process's own handler runs, so an exit on a
 * stop signal, or with the code reporting one, counts as asked for.
 */
export function isCrash(exit: ChildExit): boolean {
  return exit.signal === null ? !STOPPED_CODES.includes(exit.code) : !STOP_SIGNALS.includes(exit.signal);
}

/** Keeps the last lines of stdout and stderr (for error messages); resolves on the READY line. */
function collectOutput(child: ChildProcess, output: string[]): Promise<string> {
  return new Promise((resolve) => {
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        if (output.length > OUTPUT_TAIL_LINES) output.shift();
        const ready = CHILD_SIGNALS.ready.exec(line);
        if (ready?.[1]) resolve(ready[1]);
      });
    }
  });
}

function spawnError(spec: BackendChildSpec, error: NodeJS.ErrnoException): Error {
  return spec.onSpawnError?.(error) ?? new BackendStartError(`${spec.name} could not be started: ${error.message}.`, error);
}

function exitError(spec: BackendChildSpec, child: ChildProcess, output: readonly string[]): Error {
  if (child.exitCode === EXIT_PORT_IN_USE || output.some((line) => CHILD_SIGNALS.portInUse.test(line))) {
    return new PortInUseError(spec.name, spec.port);
  }
  const explained = spec.explainFailure?.(output);
  if (explained) return explained;
  const how = child.exitCode === null ? `on signal ${child.signalCode}` : `with code ${child.exitCode}`;
  return new BackendStartError(`${spec.name} exited ${how} before it was ready${lastLine(output)}.`);
}

function lastLine(output: readonly string[]): string {
  const line = [...output].reverse().find((candidate) => candidate.trim() !== '');
  return line === undefined ? '' : `: ${line.trim()}`;
}

/** A started child must neither keep this process alive nor block on a full output pipe. */
function detach(child: ChildProcess): void {
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
}

async function stopChild(child: ChildProcess, exited: Promise<ChildExit>, unregister: () => void): Promise<void> {
  unregister();
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), BACKEND_TIMEOUTS.stopGrace);
  await exited;
  clearTimeout(killer);
}
