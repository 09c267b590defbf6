import { SingleBar, Presets } from 'cli-progress';

/** A progress bar on stderr (stdout carries the command's result); silent when stderr is no terminal. */
export function progressBar(label: string, total: number): { update(done: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar({ format: `${label} [{bar}] {value}/{total} {percentage}% {eta_formatted}`, stream: process.stderr, hideCursor: true }, Presets.shades_classic);
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}
