import { getDocumentClient } from '../../shared/aws/clients';
import { ValidationError, type FieldError } from '../../shared/errors';
import { lazy } from '../../shared/lazy';
import { parseInput } from '../../shared/validation/issues';
import type { MediaLogEntry } from '../model/schemas';
import { NewMediaLogEntrySchema } from './new-entry-schemas';
import { createFeedWriters, applyFeedChanges, type FeedOutcome, type FeedResult } from './apply-changes';
import { parseFeedBody, type FeedChange } from './feed-messages';
import type { WriteOutcome } from './entry-writer';

/**
 * The one way entries get into the log outside the queue (the CLI import and seed): validate with
 * the feed's schemas, then write through the feed's writers, so an import and the queue consumer
 * store and change entries the same way (and the fold counts them alike).
 */

// Rebuilt after a reset (resetEveryLazy): the tools that import switch the process between databases.
const writers = /* @__PURE__ */ lazy(() => createFeedWriters(getDocumentClient()));

/** How many entries a batch stored, and how many were already stored (a retried import). */
export interface WriteSummary {
  readonly written: number;
  readonly unchanged: number;
}

/** Options of {@link writeMediaLogEntries} and {@link importFeedChanges}. */
export interface WriteOptions {
  /** Called as writes settle, with how many changes are done so far (for progress bars). */
  readonly onProgress?: (done: number) => void;
}

function prefixed(errors: readonly FieldError[], prefix: string): FieldError[] {
  return errors.map((error) => ({ name: error.name === 'body' ? prefix : `${prefix}: ${error.name}`, reason: error.reason }));
}

/** Validate one entry; a 400 {@link ValidationError} names each bad field. */
export function parseMediaLogEntry(input: unknown): MediaLogEntry {
  return parseInput(NewMediaLogEntrySchema, input, 'body');
}

/**
 * Parse and validate one NDJSON line of an import (numbered from 1): a feed message (DESIGN.md
 * section 7a) or a plain entry. A bad line is a {@link ValidationError} whose errors name the line,
 * e.g. `line 3: status`.
 */
export function parseImportLine(line: string, lineNumber: number): FeedChange {
  const name = `line ${lineNumber}`;
  try {
    return parseFeedBody(line, { plainEntries: true });
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(prefixed(error.errors ?? [], name), `Line ${lineNumber} is not a valid feed message or media log entry.`);
  }
}

/** Validate and store one entry (one conditional put); storing the same entry again changes nothing. */
export async function writeMediaLogEntry(input: unknown): Promise<WriteOutcome> {
  return writers().entries.write(parseMediaLogEntry(input));
}

/**
 * Validate every entry first (a bad one is a {@link ValidationError} naming `entries[i]`, and then
 * nothing is written), then store them in batches. The first entry that could not be
 * stored (a conflict, a failed write) is thrown after the others are settled.
 */
export async function writeMediaLogEntries(inputs: Iterable<unknown>, options: WriteOptions = {}): Promise<WriteSummary> {
  const entries = [...inputs].map((input, index) => {
    try {
      return parseMediaLogEntry(input);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(prefixed(error.errors ?? [], `entries[${index}]`), `Entry ${index} is not a valid media log entry.`);
    }
  });
  let done = 0;
  const results = await writers().entries.writeAll(entries, { onSettled: (count) => options.onProgress?.((done += count)) });
  const failed = results.find((result): result is Error => result instanceof Error);
  if (failed) throw failed;
  return { written: results.filter((result) => result === 'written').length, unchanged: results.filter((result) => result === 'unchanged').length };
}

/** What an import did, per kind of change and outcome; `failures` lists the changes that did not apply. */
export interface ImportSummary {
  readonly entries: Readonly<Record<'applied' | 'ignored', number>>;
  readonly statuses: Readonly<Record<'applied' | 'ignored', number>>;
  readonly failures: readonly { readonly position: number; readonly outcome: Exclude<FeedOutcome, 'applied' | 'ignored'>; readonly reason: string }[];
}

/** Apply validated changes through the feed's writers and sum up what became of them. */
export async function importFeedChanges(changes: readonly FeedChange[], options: WriteOptions = {}): Promise<ImportSummary> {
  let done = 0;
  const statusCount = changes.filter((change) => change.kind === 'status').length;
  const results: FeedResult[] = await applyFeedChanges(writers(), changes, { batchEntries: true, onSettled: (count) => options.onProgress?.((done += count)) });
  options.onProgress?.((done += statusCount));
  const summary = { entries: { applied: 0, ignored: 0 }, statuses: { applied: 0, ignored: 0 }, failures: [] as ImportSummary['failures'][number][] };
  results.forEach((result, position) => {
    const kind = (changes[position] as FeedChange).kind === 'entry' ? summary.entries : summary.statuses;
    if (result.outcome === 'applied' || result.outcome === 'ignored') kind[result.outcome] += 1;
    else summary.failures.push({ position, outcome: result.outcome, reason: result.reason ?? result.outcome });
  });
  return summary;
}
