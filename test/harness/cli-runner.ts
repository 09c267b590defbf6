import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** What a CLI run printed and how it exited. */
export interface CliRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Run an entry point of bin/ (`cli.ts`, `invoke.ts`) as an operator would, in a child process on
 * this test file's back-ends and database (the child inherits the isolation variables), with
 * `DATA_DIR` and any other variables of `env`.
 */
export function runEntryPoint(script: 'cli.ts' | 'invoke.ts', args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(process.cwd(), 'bin', script), ...args],
      { env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}
