/**
 * What the local set-up says while it starts the back-ends, so that nobody waits in silence: one
 * line when a step starts ("starting DynamoDB Local…"), a reminder every few seconds while it runs,
 * and one line with how long it took ("DynamoDB Local ready on http://127.0.0.1:8000 in 3.1 s").
 */

/** Receives one status line, without its newline. */
export type StatusLine = (line: string) => void;

/** Status lines go to stderr: stdout carries the results (JSON, tokens) that scripts capture. */
export const statusToStderr: StatusLine = (line) => {
  process.stderr.write(`${line}\n`);
};

/** Says nothing: for the tests and benchmarks, which start back-ends as a library. */
export const noStatus: StatusLine = () => undefined;

/** How often a step that is still running says so. */
export const STILL_RUNNING_EVERY_MS = 5_000;

/** A duration as the status lines show it: seconds with one decimal. */
export function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}

/** What a step says: its activity ("starting DynamoDB Local"), and its result once done. */
export interface StepTexts<T> {
  readonly activity: string;
  readonly done: (result: T, took: string) => string;
}

/**
 * Runs one start-up step, saying when it starts, every {@link STILL_RUNNING_EVERY_MS} while it runs,
 * and how long it took. A step that fails says nothing more: its error is the caller's last line.
 */
export async function reportStep<T>(status: StatusLine, texts: StepTexts<T>, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  status(`${texts.activity}…`);
  const reminder = setInterval(() => status(`still ${texts.activity}, ${seconds(performance.now() - started)} so far…`), STILL_RUNNING_EVERY_MS);
  reminder.unref();
  try {
    const result = await work();
    status(texts.done(result, seconds(performance.now() - started)));
    return result;
  } finally {
    clearInterval(reminder);
  }
}
