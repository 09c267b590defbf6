import { execFile } from 'node:child_process';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import { startServer } from '../avatars/fetch/local-servers';

/**
 * How the smoke tests run `npm run smoke` and what they run it against besides the local gateway:
 * small loopback servers that answer as a broken stage would.
 */

/** What a smoke run printed and how it exited. */
export interface SmokeRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout's lines, without the trailing empty one. */
  readonly lines: readonly string[];
}

/** Run bin/smoke.ts as an operator would, in a child process (the command's own Node, no test isolation needed: it only speaks HTTP). */
export function runSmokeCommand(args: readonly string[]): Promise<SmokeRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(process.cwd(), 'bin', 'smoke.ts'), ...args],
      { env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({
        status: error ? Number(error.code ?? 1) : 0,
        stdout,
        stderr,
        lines: stdout.split('\n').filter((line) => line !== ''),
      }),
    );
  });
}

/** A loopback HTTP server standing in for a stage. */
export interface FakeStage {
  /** Its base URL, with the API's prefix, as the stack output would be. */
  readonly baseUrl: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Start a server on 127.0.0.1 that answers every request with `answer` (which may also never answer). */
export async function startFakeStage(answer: RequestListener): Promise<FakeStage> {
  const server = await startServer(answer);
  return { baseUrl: `${server.origin}${API_PREFIX}`, port: server.port, close: () => server.close() };
}
