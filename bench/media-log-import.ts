import { randomUUID } from 'node:crypto';
import { counterDeltas, entryCounterKeys } from '../functions/media-log/counters';
import { importFeedChanges } from '../functions/media-log/ingest/media-log-ingest';
import { chunkCounters, planLanes } from '../functions/media-log/ingest/write-chunks';
import { mediaLogWriter } from '../functions/media-log/media-log-context';
import type { MediaLogEntry } from '../functions/media-log/schemas';
import { getDocumentClient } from '../functions/shared/aws/clients';
import { tableName } from '../functions/shared/config/data-config';
import { mediaLogTable } from '../functions/shared/tables/media-log-table';
import { putEntries } from '../local/seed/bulk-load';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';
import { formatCount, formatRatio, formatTable, progressBar, progressOf, ratio, timed, type TargetResult } from './report';

/**
 * The media log import (issue 17, DESIGN.md section 9): entries per second of `media-log import`'s
 * path (validated feed changes through the chunked writer, counters summed per bucket within a
 * transaction) against one transaction per entry with its counters, the writer it replaced, in the
 * same run on the same DynamoDB Local; and a re-run of the same import, which must store nothing.
 * Beside them, the floor: the same number of entries stored alone (BatchWriteItem, no counter), which
 * no writer that also counts them can beat, and the items each writer writes per entry.
 */

/** Options of {@link benchMediaLogImport}. */
export interface ImportBenchOptions {
  /** Entries imported (default 100k). */
  readonly entries?: number;
  /** Entries written one transaction each, the baseline (default 1,000). */
  readonly baselineEntries?: number;
  /** Owners of the entries (default 1,000 users). */
  readonly users?: number;
}

/** One timed phase. */
export interface ImportPhase {
  readonly entries: number;
  readonly seconds: number;
  readonly perSecond: number;
  /** Items written per entry (the entry's and counter items), when the phase writes. */
  readonly itemsPerEntry?: number;
}

/** What the import bench measured. */
export interface ImportBenchResult {
  readonly baseline: ImportPhase;
  readonly import: ImportPhase;
  readonly rerun: ImportPhase;
  /** The entries alone, uncounted: the bound on any writer of this table on this machine. */
  readonly floor: ImportPhase;
  /** Counter items per entry if all of the import's counter additions were summed at once. */
  readonly fewestCounterItemsPerEntry: number;
  readonly targets: TargetResult[];
}

/** Concurrent writers of the baseline: as many as the import's lanes, so only the batching differs. */
const BASELINE_WORKERS = 4;
/** The year the entries span. */
const START = new Date('2025-01-01T00:00:00Z');
const SPAN_MS = 365 * 86_400_000;

/** Entries of `users` users over a year; fresh ids per call, so each phase writes new entries. */
function entriesOf(count: number, users: number, seed: number): MediaLogEntry[] {
  const userIds = Array.from({ length: users }, (_, index) => 1 + index);
  return sampleMediaLogEntries(count, { userIds, start: START, spanMs: SPAN_MS, seed }).map((entry) => ({ ...entry, id: randomUUID() }));
}

/** One transaction per entry (the entry and its counters), {@link BASELINE_WORKERS} at a time. */
async function perEntry(entries: readonly MediaLogEntry[]): Promise<void> {
  const queue = [...entries];
  const bar = progressBar('one transaction per entry', entries.length);
  await Promise.all(
    Array.from({ length: BASELINE_WORKERS }, async () => {
      for (let entry = queue.shift(); entry !== undefined; entry = queue.shift()) {
        await mediaLogWriter().write(entry);
        bar.increment(1);
      }
    }),
  );
  bar.stop();
}

/** Items per entry of one transaction per entry: the entry and each of its counters. */
function perEntryItems(entries: readonly MediaLogEntry[]): number {
  return entries.reduce((sum, entry) => sum + 1 + entryCounterKeys(entry).length, 0) / entries.length;
}

/** Items per entry of the import's transactions: entries plus counters summed per transaction. */
function importItems(entries: readonly MediaLogEntry[]): number {
  const items = planLanes(entries).reduce(
    (sum, { shard, chunks }) => sum + chunks.reduce((chunkSum, chunk) => chunkSum + chunk.length + chunkCounters(chunk, shard).length, 0),
    0,
  );
  return items / entries.length;
}

/** The import's path: the changes `media-log import` makes of a file of plain entries. */
async function imported(entries: readonly MediaLogEntry[], label: string): Promise<void> {
  const bar = progressBar(label, entries.length);
  const summary = await importFeedChanges(
    entries.map((entry) => ({ kind: 'entry', entry })),
    { onProgress: progressOf(bar) },
  );
  bar.stop();
  if (summary.failures.length > 0) throw new Error(`The import failed ${summary.failures.length} entries: ${summary.failures[0]?.reason}`);
}

/** Measure the baseline, the import and its re-run. */
export async function benchMediaLogImport(options: ImportBenchOptions = {}): Promise<ImportBenchResult> {
  const count = options.entries ?? 100_000;
  const users = options.users ?? 1000;
  const baselineEntries = entriesOf(options.baselineEntries ?? 1000, users, 11);
  const importEntries = entriesOf(count, users, 12);
  const baseline = await timed(() => perEntry(baselineEntries));
  const first = await timed(() => imported(importEntries, `import of ${formatCount(count)}`));
  const rerun = await timed(() => imported(importEntries, 'the same import again'));
  // Last, as these entries are never counted: what storing entries costs before any counter.
  const floorEntries = entriesOf(count, users, 13);
  const bar = progressBar('entries alone, no counter', count);
  const floor = await timed(() => putEntries(getDocumentClient(), tableName(mediaLogTable), floorEntries, { onProgress: (stored) => bar.increment(stored) }));
  bar.stop();
  const phase = (entries: number, ms: number, itemsPerEntry?: number): ImportPhase => ({ entries, seconds: ms / 1000, perSecond: Math.round(entries / (ms / 1000)), itemsPerEntry });
  const result = {
    baseline: phase(baselineEntries.length, baseline.ms, perEntryItems(baselineEntries)),
    import: phase(count, first.ms, importItems(importEntries)),
    rerun: phase(count, rerun.ms, 0),
    floor: phase(count, floor.ms, 1),
    fewestCounterItemsPerEntry: counterDeltas(importEntries, 0).size / count,
  };
  const speedup = ratio(result.import.perSecond, result.baseline.perSecond);
  return {
    ...result,
    targets: [
      { bench: 'media log import vs one transaction per entry', target: '≥ 10×', measured: formatRatio(speedup), pass: speedup >= 10 },
      { bench: 'media log import, entries/s', target: '≥ 1,000/s', measured: `${result.import.perSecond}/s`, pass: result.import.perSecond >= 1000 },
    ],
  };
}

/** The figures as a table, each rate against the baseline's. */
export function formatMediaLogImport(result: ImportBenchResult): string {
  const row = (name: string, phase: ImportPhase) => [
    name,
    formatCount(phase.entries),
    phase.seconds.toFixed(1),
    phase.perSecond,
    formatRatio(ratio(phase.perSecond, result.baseline.perSecond)),
    phase.itemsPerEntry === undefined ? '' : phase.itemsPerEntry.toFixed(2),
    phase.itemsPerEntry ? Math.round(phase.perSecond * phase.itemsPerEntry) : '',
  ];
  const table = formatTable(
    ['writer', 'entries', 'seconds', 'entries/s', 'vs baseline', 'items/entry', 'items/s'],
    [
      row('one transaction per entry (baseline)', result.baseline),
      row('import: chunked transactions', result.import),
      row('the same import again (all present)', result.rerun),
      row('floor: entries alone, no counter', result.floor),
    ],
  );
  return `${table}\nCounter items per entry if the whole import's counters were summed at once: ${result.fewestCounterItemsPerEntry.toFixed(2)}.`;
}
