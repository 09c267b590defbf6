import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { inLambda } from './invoke-store';

/**
 * Where log lines and metric lines go. In Lambda, to the runtime's stdout and stderr as Powertools
 * writes them (CloudWatch Logs reads both and extracts the embedded metrics). Everywhere else to
 * stderr: stdout carries results only (`invoke`, the CLI), and a developer sees the logs and metrics
 * side by side. Powertools Logger writes through a `console` it keeps, with no option for the
 * stream, so the logger gets this module's console; the metric lines come through
 * {@link writeTelemetryLine}.
 */

/** Where local lines go; unset: stderr (read when a line is written, so that Lambda never opens it for this). */
let destination: NodeJS.WritableStream | undefined;

function localDestination(): NodeJS.WritableStream {
  return destination ?? process.stderr;
}

/**
 * A console whose every line is passed on to the current local destination as it is written;
 * made outside Lambda only, where a logger gets it.
 */
function createLocalConsole(): Console {
  const lines = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, encoding: BufferEncoding, done: (error?: Error | null) => void) {
      if (typeof chunk === 'string') localDestination().write(chunk, encoding);
      else localDestination().write(chunk);
      done();
    },
  });
  return new Console({ stdout: lines, stderr: lines });
}

/** Outside Lambda, make `target` (a Powertools logger) write to the local destination. */
export function keepOffStdout<T extends object>(target: T): T {
  if (!inLambda()) Object.assign(target, { console: createLocalConsole() });
  return target;
}

/**
 * Write one line of telemetry (an embedded metric format line): in Lambda straight to stdout, where
 * CloudWatch Logs reads it as written (the runtime's console would prefix it), elsewhere to the
 * local destination.
 */
export function writeTelemetryLine(line: string): void {
  if (inLambda()) process.stdout.write(`${line}\n`);
  else localDestination().write(`${line}\n`);
}

/**
 * Send the local log and metric lines to `stream` instead of stderr: for tools that keep them out
 * of their own output (benchmarks) or read them (tests). `process.stderr` puts them back.
 */
export function sendLocalTelemetryTo(stream: NodeJS.WritableStream): void {
  destination = stream;
}
