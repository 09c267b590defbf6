import { ValidationError, type FieldError } from '../../shared/errors';
import { parseInput } from '../../shared/validation/issues';
import { mediaLogWriter } from '../media-log-context';
import { NewMediaLogEntrySchema, type MediaLogEntry } from '../schemas';
import type { WriteOutcome } from './media-log-writer';

/**
 * The one way entries get into the log (the CLI import and seed, any future ingest route): validate
 * with {@link NewMediaLogEntrySchema}, then store each entry with its counters in one transaction.
 */

/** How many entries a batch stored, and how many were already stored unchanged (a retried import). */
export interface WriteSummary {
  readonly written: number;
  readonly unchanged: number;
}

/** Options of {@link writeMediaLogEntries}. */
export interface WriteOptions {
  /** Transactions in flight at once (default 16). */
  readonly concurrency?: number;
  /** Called after each stored entry, with how many are done (for progress bars). */
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
 * Parse and validate one NDJSON line (numbered from 1). A line that is not JSON or not a valid entry
 * is a {@link ValidationError} whose errors name the line, e.g. `line 3: status`.
 */
export function parseMediaLogLine(line: string, lineNumber: number): MediaLogEntry {
  const name = `line ${lineNumber}`;
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch {
    throw new ValidationError([{ name, reason: 'Not a JSON value.' }], `Line ${lineNumber} is not valid JSON.`);
  }
  try {
    return parseMediaLogEntry(input);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    throw new ValidationError(prefixed(error.errors ?? [], name), `Line ${lineNumber} is not a valid media log entry.`);
  }
}

/** Validate and store one entry with its counters, atomically; storing the same entry again changes nothing. */
export async function writeMediaLogEntry(input: unknown): Promise<WriteOutcome> {
  return mediaLogWriter().write(parseMediaLogEntry(input));
}

/**
 * Validate every entry first (a bad one is a {@link ValidationError} naming `entries[i]`, and then
 * nothing is written), then store them, several transactions at a time.
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
  const writer = mediaLogWriter();
  let next = 0;
  let written = 0;
  let unchanged = 0;
  const work = async (): Promise<void> => {
    while (next < entries.length) {
      const entry = entries[next++] as MediaLogEntry;
      if ((await writer.write(entry)) === 'written') written += 1;
      else unchanged += 1;
      options.onProgress?.(written + unchanged);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency ?? 16, entries.length)) }, work));
  return { written, unchanged };
}
