import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ValidationError, type FieldError } from '../../functions/shared/errors';
import { importFeedChanges, parseImportLine, type ImportSummary } from '../../functions/media-log/feed/import-changes';
import type { FeedChange } from '../../functions/media-log/feed/feed-messages';
import { UsageError } from './cli-errors';
import { foldWrittenChanges, withData } from './data-access';
import { progressBar } from './progress';

/**
 * Lines applied per batch: bounded memory for files of any size, and enough entries per batch that
 * the writer keeps its batch requests full and several in flight.
 */
const BATCH = 2000;
/** Bad lines listed before the report is cut short. */
const MAX_REPORTED = 20;

async function* lines(file: string): AsyncGenerator<{ line: string; number: number }> {
  let number = 0;
  for await (const line of createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity })) {
    number += 1;
    if (line.trim() !== '') yield { line, number };
  }
}

/** First pass: validate every line, so that a bad file writes nothing at all. */
async function validateFile(file: string): Promise<number> {
  const errors: FieldError[] = [];
  let count = 0;
  for await (const { line, number } of lines(file)) {
    try {
      parseImportLine(line, number);
      count += 1;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      if (errors.length < MAX_REPORTED) errors.push(...(error.errors ?? []));
    }
  }
  if (errors.length > 0) throw new ValidationError(errors, `${file} has invalid lines; nothing was imported.`);
  return count;
}

/** What a whole import did, and the lines that did not apply (the first {@link MAX_REPORTED}). */
interface ImportTotals {
  entries: { applied: number; ignored: number };
  statuses: { applied: number; ignored: number };
  failed: number;
  reported: string[];
}

function addBatch(totals: ImportTotals, summary: ImportSummary, lineNumbers: readonly number[]): void {
  for (const kind of ['entries', 'statuses'] as const) {
    totals[kind].applied += summary[kind].applied;
    totals[kind].ignored += summary[kind].ignored;
  }
  totals.failed += summary.failures.length;
  for (const failure of summary.failures) {
    if (totals.reported.length < MAX_REPORTED) totals.reported.push(`line ${lineNumbers[failure.position]}: ${failure.outcome}: ${failure.reason}`);
  }
}

/** `count` and the noun, singular for one: `1 entry`, `2 entries`. */
function counted(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function describe(totals: ImportTotals): string {
  const { entries, statuses } = totals;
  const parts = [`${counted(entries.applied, 'entry', 'entries')} written${entries.ignored ? `, ${entries.ignored} already present` : ''}`];
  if (statuses.applied + statuses.ignored > 0) parts.push(`${counted(statuses.applied, 'status change', 'status changes')} applied${statuses.ignored ? `, ${statuses.ignored} superseded or repeated` : ''}`);
  return parts.join('; ');
}

/**
 * `media-log import FILE.ndjson`: one feed message (DESIGN.md section 7a) or plain entry per line,
 * validated whole first, then applied in batches through the feed's writers, and counted (the fold
 * of the log's stream has applied every change when it returns). Running it again
 * changes nothing; a line that cannot apply (a status for an entry the file and the log lack, an
 * id holding another request) is reported, and the command exits 1 after the rest is applied.
 */
export async function mediaLogImport(args: string[]): Promise<void> {
  const [file, ...extra] = args;
  if (file === undefined || extra.length > 0) throw new UsageError('media-log import takes one FILE.ndjson.');
  try {
    await access(file);
  } catch {
    throw new UsageError(`cannot read ${file}.`);
  }
  const total = await validateFile(file);
  const totals = await withData(async () => {
    const bar = progressBar('import', total);
    const sums: ImportTotals = { entries: { applied: 0, ignored: 0 }, statuses: { applied: 0, ignored: 0 }, failed: 0, reported: [] };
    let done = 0;
    let batch: FeedChange[] = [];
    let lineNumbers: number[] = [];
    const flush = async () => {
      const before = done;
      addBatch(sums, await importFeedChanges(batch, { onProgress: (count) => bar.update(before + count) }), lineNumbers);
      done += batch.length;
      batch = [];
      lineNumbers = [];
    };
    try {
      for await (const { line, number } of lines(file)) {
        batch.push(parseImportLine(line, number));
        lineNumbers.push(number);
        if (batch.length === BATCH) await flush();
      }
      if (batch.length > 0) await flush();
    } finally {
      bar.stop();
    }
    await foldWrittenChanges();
    return sums;
  });
  process.stdout.write(`${describe(totals)}\n`);
  if (totals.failed > 0) {
    throw new ImportFailures(totals.failed, totals.reported);
  }
}

/** Lines of an import that did not apply; the rest did. */
export class ImportFailures extends Error {
  public constructor(
    public readonly count: number,
    public readonly lines: readonly string[],
  ) {
    super(`${counted(count, 'line', 'lines')} did not apply:\n${lines.map((line) => `  ${line}`).join('\n')}${count > lines.length ? `\n  …and ${count - lines.length} more` : ''}`);
    this.name = 'ImportFailures';
  }
}
