/**
 * What every benchmark shares: sample statistics, loops bounded in count and time, aligned tables,
 * the target-versus-measured verdicts of the summary, and progress bars on stderr.
 */
import cliProgress from 'cli-progress';

/** Percentiles and extremes of a set of samples (milliseconds, usually). */
export interface Summary {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
}

/** The `p`-th percentile (0–100) of ascending `sorted` samples, nearest-rank; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** The median of samples in any order. */
export function median(samples: readonly number[]): number {
  return percentile([...samples].sort((a, b) => a - b), 50);
}

/** p50 / p95 / p99 and extremes of samples in any order. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    min: sorted[0] ?? Number.NaN,
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** The median and the middle half of a set of samples: what a noisy timing needs to be read honestly. */
export interface Spread {
  readonly count: number;
  readonly p25: number;
  readonly median: number;
  readonly p75: number;
}

/** Quartiles of samples in any order. */
export function spread(samples: readonly number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  return { count: sorted.length, p25: percentile(sorted, 25), median: percentile(sorted, 50), p75: percentile(sorted, 75) };
}

/** A spread as `212 ms (205–230)`: the median, then the 25th and 75th percentiles. */
export function formatSpread(value: Spread): string {
  const bare = (ms: number) => formatMs(ms).replace(/ ms$/, '');
  return `${formatMs(value.median)} (${bare(value.p25)}–${bare(value.p75)})`;
}

/** `value` over `baseline`, e.g. 1.07 for 7 % more. */
export function ratio(value: number, baseline: number): number {
  return value / baseline;
}

/** A ratio as `1.07×`. */
export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a';
}

/** Milliseconds with a precision that suits their size. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'n/a';
  const size = Math.abs(ms);
  return `${size < 10 ? ms.toFixed(2) : size < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
}

/** A count with thousands separators. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** Cells of a table: text is left-aligned, numbers right-aligned. */
export type Cell = string | number;

/** An aligned plain-text table with a header row and a rule under it. */
export function formatTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const text = (cell: Cell | undefined) => (cell === undefined ? '' : String(cell));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => text(row[column]).length)));
  const line = (cells: readonly Cell[]) =>
    widths
      .map((width, column) => (typeof cells[column] === 'number' ? text(cells[column]).padStart(width) : text(cells[column]).padEnd(width)))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The header printed before each benchmark. */
export function sectionHeader(title: string): string {
  return `\n== ${title} ${'='.repeat(Math.max(3, 76 - title.length))}`;
}

/** One line of the summary: a target and what was measured against it. */
export interface TargetResult {
  readonly bench: string;
  readonly target: string;
  readonly measured: string;
  /** Whether the target is met; null for a figure reported without a target. */
  readonly pass: boolean | null;
}

function verdict(pass: boolean | null): string {
  return pass === null ? 'info' : pass ? 'PASS ✓' : 'FAIL ✗';
}

/** The summary table of every target. */
export function formatSummary(results: readonly TargetResult[]): string {
  return formatTable(['bench', 'target', 'measured', 'result'], results.map((result) => [result.bench, result.target, result.measured, verdict(result.pass)]));
}

/** How long a measured loop may run: whichever limit comes first ends it. */
export interface LoopBounds {
  readonly iterations: number;
  readonly maxMs: number;
}

/** Run `body` up to `bounds.iterations` times, stopping early once `bounds.maxMs` have passed; returns the runs done. */
export async function repeatBounded(bounds: LoopBounds, body: (index: number) => Promise<void>): Promise<number> {
  const deadline = performance.now() + bounds.maxMs;
  let index = 0;
  while (index < bounds.iterations && performance.now() < deadline) {
    await body(index);
    index += 1;
  }
  return index;
}

/** Milliseconds `work` takes, with its result. */
export async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** A progress bar on stderr (stdout carries the figures), or a silent stand-in when stderr is no terminal. */
export function progressBar(label: string, total: number): { increment(by: number): void; stop(): void } {
  if (!process.stderr.isTTY) return { increment: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} | ETA {eta}s`, stream: process.stderr, hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { increment: (by) => bar.increment(by), stop: () => bar.stop() };
}

/** A progress callback of running totals that moves `bar` by the difference. */
export function progressOf(bar: { increment(by: number): void }): (done: number) => void {
  let shown = 0;
  return (done) => {
    bar.increment(done - shown);
    shown = done;
  };
}
