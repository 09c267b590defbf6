import { Presets, SingleBar } from 'cli-progress';

/**
 * Progress of long work (`seed`, `media-log import`) on stderr, which stdout's result never mixes
 * with: a bar on a terminal; otherwise (a pipe, a file, CI) a plain line when the work starts,
 * every few seconds while it runs, and when it ends, so a log shows it is moving and how fast.
 */

/** What a command tells about its progress. */
export interface Progress {
  /** `done` items out of the total are finished. */
  update(done: number): void;
  /** The work is over (finished or failed). */
  stop(): void;
}

/** Where and how often progress is shown. */
export interface ProgressOptions {
  readonly stream?: NodeJS.WritableStream & { readonly isTTY?: boolean };
  /** How often a plain line is written when the stream is no terminal. */
  readonly everyMs?: number;
}

/** How often a plain progress line is written: often enough that a log never looks stuck. */
export const PROGRESS_LINE_EVERY_MS = 5_000;

/** A progress bar on a terminal, progress lines anywhere else. */
export function progressBar(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  return stream.isTTY ? terminalBar(label, total, stream) : progressLines(label, total, stream, options.everyMs ?? PROGRESS_LINE_EVERY_MS);
}

function terminalBar(label: string, total: number, stream: NodeJS.WritableStream): Progress {
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} {percentage}% {eta_formatted}`, stream, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}

function perSecond(done: number, elapsedMs: number): string {
  return `${elapsedMs > 0 ? Math.round((done * 1000) / elapsedMs) : 0}/s`;
}

function progressLines(label: string, total: number, stream: NodeJS.WritableStream, everyMs: number): Progress {
  const started = performance.now();
  let done = 0;
  const write = (text: string) => stream.write(`${label}: ${text}\n`);
  const percent = () => (total > 0 ? Math.floor((done * 100) / total) : 100);
  write(`0/${total}`);
  const timer = setInterval(() => write(`${done}/${total} (${percent()}%), ${perSecond(done, performance.now() - started)}`), everyMs);
  timer.unref();
  let stopped = false;
  return {
    update: (value) => {
      done = value;
    },
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      const elapsed = performance.now() - started;
      write(`${done}/${total} in ${(elapsed / 1000).toFixed(1)} s (${perSecond(done, elapsed)})`);
    },
  };
}
