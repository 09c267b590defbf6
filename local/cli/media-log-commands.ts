import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { ValidationError, type FieldError } from '../../functions/shared/errors';
import { parseMediaLogLine, writeMediaLogEntries } from '../../functions/media-log/ingest/media-log-ingest';
import type { MediaLogEntry } from '../../functions/media-log/schemas';
import { UsageError } from './cli-errors';
import { withData } from './data-access';
import { progressBar } from './progress';

/** Entries written per batch: bounded memory for files of any size. */
const BATCH = 500;
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
      parseMediaLogLine(line, number);
      count += 1;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      if (errors.length < MAX_REPORTED) errors.push(...(error.errors ?? []));
    }
  }
  if (errors.length > 0) throw new ValidationError(errors, `${file} has invalid lines; nothing was imported.`);
  return count;
}

/** `media-log import FILE.ndjson`: one entry per line, validated whole first, then written in batches. */
export async function mediaLogImport(args: string[]): Promise<void> {
  const [file, ...extra] = args;
  if (file === undefined || extra.length > 0) throw new UsageError('media-log import takes one FILE.ndjson.');
  try {
    await access(file);
  } catch {
    throw new UsageError(`cannot read ${file}.`);
  }
  const total = await validateFile(file);
  const summary = await withData(async () => {
    const bar = progressBar('import', total);
    let written = 0;
    let unchanged = 0;
    let batch: MediaLogEntry[] = [];
    const flush = async () => {
      const done = written + unchanged;
      const result = await writeMediaLogEntries(batch, { onProgress: (count) => bar.update(done + count) });
      written += result.written;
      unchanged += result.unchanged;
      batch = [];
    };
    try {
      for await (const { line, number } of lines(file)) {
        batch.push(parseMediaLogLine(line, number));
        if (batch.length === BATCH) await flush();
      }
      if (batch.length > 0) await flush();
    } finally {
      bar.stop();
    }
    return { written, unchanged };
  });
  process.stdout.write(`${summary.written} entries written${summary.unchanged ? `, ${summary.unchanged} already present` : ''}\n`);
}
