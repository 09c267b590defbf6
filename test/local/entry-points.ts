import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { tables } from '../../functions/shared/tables/index';
import { LIVE_ENV } from '../../functions/live/live-config';

/**
 * Runs the project's entry points (`bin/*.ts`) as separate processes, the way `npm start`,
 * `npm run cli` and `npm run invoke` run them (node with tsx), so tests see exactly what a
 * terminal or a script sees: exit status, stdout, stderr.
 */

/** How a finished command ended and what it printed. */
export interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Environment overrides; `undefined` removes a variable. */
export type EnvOverrides = Readonly<Record<string, string | undefined>>;

/**
 * The test process's environment with `overrides` applied (jest's NODE_OPTIONS left out). A child
 * without the test's DynamoDB endpoint starts back-ends of its own, so it does not get the test
 * file's table names either: table names without an endpoint mean deployed tables to the CLI.
 */
export function childEnv(overrides: EnvOverrides = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  // The live media log's URLs of this test process name a port of its own: a child finds its own, as in a terminal.
  for (const name of Object.values(LIVE_ENV)) delete env[name];
  if ('DYNAMODB_ENDPOINT' in overrides && overrides.DYNAMODB_ENDPOINT === undefined) {
    for (const table of tables) delete env[table.nameEnv];
  }
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

function spawnEntryPoint(name: 'local' | 'cli' | 'invoke', args: readonly string[], env: EnvOverrides): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(process.cwd(), 'bin', `${name}.ts`), ...args], { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Runs `bin/<name>.ts` with `args` to its end; `stdin` is written to it, then closed. */
export function runEntryPoint(name: 'local' | 'cli' | 'invoke', args: readonly string[], options: { env?: EnvOverrides; stdin?: string; timeoutMs?: number } = {}): Promise<Run> {
  const child = spawnEntryPoint(name, args, options.env ?? {});
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
  child.stdin?.end(options.stdin ?? '');
  return collectOutput(child).finally(() => clearTimeout(timer));
}

/** What a child prints until it ends, and how it ended. */
export function collectOutput(child: ChildProcess): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 128 : 1), stdout, stderr }));
  });
}

/** A running `npm start`: the API's base URL, what it printed so far, and Ctrl-C. */
export interface RunningServer {
  readonly apiUrl: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Sends SIGINT to its process group, as Ctrl-C does (once), and resolves with how it ended. */
  stop(): Promise<Run>;
}

/** How to start the server: by default `bin/local.ts` as `npm start` runs it. */
export interface ServerCommand {
  readonly command?: readonly [string, ...string[]];
  readonly cwd?: string;
  readonly timeoutMs?: number;
}

/**
 * Starts `npm start` (or `command`) in a process group of its own, as a terminal would, and
 * resolves once it prints the URL it listens on; rejects if it ends or stays silent first.
 */
export function startLocalServer(env: EnvOverrides, options: ServerCommand = {}): Promise<RunningServer> {
  const [command, ...args] = options.command ?? [process.execPath, '--import', 'tsx', join(process.cwd(), 'bin', 'local.ts')];
  const child = spawn(command, args, { cwd: options.cwd, env: childEnv(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const ended = collectOutput(child);
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timeoutMs = options.timeoutMs ?? 90_000;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-(child.pid as number), 'SIGKILL');
      reject(new Error(`npm start did not listen within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    const onOutput = () => {
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', onOutput);
      let stopped: Promise<Run> | undefined;
      resolve({
        apiUrl: url,
        stdout: () => stdout,
        stderr: () => stderr,
        stop: () => {
          stopped ??= (process.kill(-(child.pid as number), 'SIGINT'), ended);
          return stopped;
        },
      });
    };
    child.stdout?.on('data', onOutput);
    void ended.then((run) => {
      clearTimeout(timer);
      reject(new Error(`npm start ended with status ${run.status} before it listened:\n${run.stderr}`));
    });
  });
}
