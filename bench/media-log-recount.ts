import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createFeedWriters } from '../functions/media-log/feed/apply-changes';
import { describeRecountTables, MediaLogRecount, recountScanShape, type RecountTableSizes } from '../functions/media-log/fold/recount';
import { Retention } from '../functions/media-log/model/retention';
import { getDocumentClient } from '../functions/shared/aws/clients';
import { parallelScan } from '../functions/shared/tables/parallel-scan';
import { tableName } from '../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogTable } from '../functions/shared/tables/media-log-table';
import { sampleMediaLogEntries } from '../local/seed/sample-entries';
import { attributeSize } from './key-heat-writes';
import { formatCount, formatRatio, formatTable, progressBar, ratio, timed, type TargetResult } from './report';

/**
 * `media-log recount` at size (DESIGN.md 7b, round five: memory bounded by the counters, not by the
 * entries). The log grows to each size in turn (100k, then 1M entries: `--quick`, 10k and 50k), all
 * within one month of a few users, so the counters are the same few thousand items at every size
 * while the entries grow tenfold. At each size:
 * - **speed**: the product's recount (both scans of the entries, both reads of the counters, the
 *   corrections) against its baseline measured just before on the same table, a bare parallel
 *   Scan of the entries (the same segments, strongly consistent) taken twice, as the recount reads
 *   them twice;
 * - **memory**: the heap the recount holds once its first scan is summed (garbage collected before
 *   the run and at that point): the counters read and the sums per counter. The counter items grow
 *   too (more status combinations are met as the entries grow), so the target holds the heap's
 *   growth to the growth of what it holds of them (the items as stored before it and as corrected
 *   after, in bytes by DynamoDB's item size rules), not to a constant: memory follows the counters,
 *   not the entries.
 * The entries are stored by BatchWriteItem alone and never folded, so every counter item is
 * corrected at the first size and again at the next: the recount's most work. Its settling wait is
 * left out (empty): that is the fold's lag, which the import bench measures.
 */

/** What a recount bench run is asked for. */
export interface RecountBenchOptions {
  readonly sizes: readonly number[];
}

/** One size's figures. */
export interface RecountSize {
  readonly entries: number;
  readonly counters: number;
  readonly corrected: number;
  readonly recountMs: number;
  /** Two bare scans of the same entries, the recount's floor. */
  readonly twoScansMs: number;
  /** Heap held by the recount after its first scan, in bytes. */
  readonly heldBytes: number;
  /**
   * What the recount holds of the counters, in DynamoDB bytes: the items as stored before it (it
   * reads them first) and as its sums make them (the items once corrected).
   */
  readonly counterBytes: number;
}

/** The run's figures and targets. */
export interface RecountBenchResult {
  readonly sizes: readonly RecountSize[];
  readonly targets: readonly TargetResult[];
}

/** Users whose entries make the log: few, so that the counters are the same at every size. */
const USERS = [60_001, 60_002, 60_003, 60_004, 60_005];
const START = new Date('2026-03-01T00:00:00Z');
/** One month: the hour, day and month counters of five users, their families and the whole log. */
const SPAN_MS = 31 * 86_400_000;
/** Entries generated and written at once, so the bench never holds a million. */
const CHUNK = 50_000;
/** The recount reads each entry at least this fraction of a bare scan's rate. */
const SPEED_TARGET = 0.5;
/** The heap held grows at most this much more than the counter items, from the smallest size to the largest. */
const MEMORY_TARGET = 1.5;

/** The garbage collector, reached without a command-line flag (for the heap held, not an estimate). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A bare parallel, strongly consistent Scan of the entries table, split as the recount splits it: items read. */
async function bareScan(sizes: RecountTableSizes): Promise<number> {
  let read = 0;
  await parallelScan(getDocumentClient(), { TableName: tableName(mediaLogTable), ConsistentRead: true }, recountScanShape(sizes.entries), (items) => {
    read += items.length;
  });
  return read;
}

/** The stored size of every counter item, by DynamoDB's item size rules. */
async function counterBytes(): Promise<number> {
  const client = getDocumentClient();
  let bytes = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const output = await client.send(new ScanCommand({ TableName: tableName(mediaLogCountsTable), ExclusiveStartKey: start }));
    for (const item of output.Items ?? []) for (const [name, value] of Object.entries(item)) bytes += attributeSize(name, value as string | number);
    start = output.LastEvaluatedKey;
  } while (start !== undefined);
  return bytes;
}

/** Store `count` more entries, uncounted, chunk by chunk. */
async function grow(from: number, count: number): Promise<void> {
  const writers = createFeedWriters(getDocumentClient());
  const bar = progressBar(`entries ${formatCount(from)} → ${formatCount(from + count)} (BatchWriteItem, never folded)`, count);
  for (let written = 0; written < count; written += CHUNK) {
    const entries = sampleMediaLogEntries(Math.min(CHUNK, count - written), { userIds: USERS, start: START, spanMs: SPAN_MS, seed: 7_000 + from + written });
    await writers.entries.putAll(entries, { onSettled: (stored) => bar.increment(stored) });
  }
  bar.stop();
}

/** Grow the log to each size and recount it there. */
export async function benchMediaLogRecount(options: RecountBenchOptions): Promise<RecountBenchResult> {
  const gc = collector();
  const sizes: RecountSize[] = [];
  let stored = 0;
  for (const size of options.sizes) {
    await grow(stored, size - stored);
    stored = size;
    const names = { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) };
    const tables = await describeRecountTables(getDocumentClient(), names);
    const scans = await timed(async () => (await bareScan(tables)) + (await bareScan(tables)));
    const recount = new MediaLogRecount(getDocumentClient(), names, Retention.forever, Date.now, tables);
    const storedBefore = await counterBytes();
    gc();
    const before = process.memoryUsage().heapUsed;
    let held = 0;
    const bar = progressBar(`recount of ${formatCount(size)} entries (two scans)`, 2 * size);
    let firstScan = 0;
    let shown = 0;
    const show = (done: number) => {
      bar.increment(done - shown);
      shown = done;
    };
    const run = await timed(() =>
      recount.run(
        async () => {
          // The first scan is summed: what the recount holds from here on is the counters and their sums.
          gc();
          held = process.memoryUsage().heapUsed - before;
        },
        (scan, entries) => {
          if (scan === 1) firstScan = entries;
          show(scan === 1 ? entries : firstScan + entries);
        },
      ),
    );
    bar.stop();
    sizes.push({ entries: run.value.entries, counters: run.value.counters, corrected: run.value.corrected.length, recountMs: run.ms, twoScansMs: scans.ms, heldBytes: held, counterBytes: storedBefore + (await counterBytes()) });
  }
  return { sizes, targets: recountTargets(sizes) };
}

/** The targets: speed against two bare scans at every size, and memory that does not follow the entries. */
function recountTargets(sizes: readonly RecountSize[]): TargetResult[] {
  const targets: TargetResult[] = sizes.map((size) => {
    const speed = ratio(size.twoScansMs, size.recountMs);
    return { bench: `media log recount of ${formatCount(size.entries)} entries, vs two bare scans`, target: `≥ ${SPEED_TARGET}×`, measured: `${formatRatio(speed)} (${formatCount(Math.round((2 * size.entries * 1000) / size.recountMs))} entries/s read)`, pass: speed >= SPEED_TARGET };
  });
  const [smallest, largest] = [sizes[0], sizes[sizes.length - 1]];
  if (smallest !== undefined && largest !== undefined && largest !== smallest) {
    const heap = ratio(largest.heldBytes, smallest.heldBytes);
    const counters = ratio(largest.counterBytes, smallest.counterBytes);
    const beyond = ratio(heap, counters);
    targets.push({
      bench: `media log recount: heap held grows with the counters, not the entries (${formatCount(smallest.entries)} → ${formatCount(largest.entries)}: entries ${formatRatio(ratio(largest.entries, smallest.entries))}, counter bytes ${formatRatio(counters)})`,
      target: `heap ≤ ${MEMORY_TARGET}× the counters' growth`,
      measured: `${formatRatio(beyond)} (heap ${formatRatio(heap)}: ${mb(largest.heldBytes)} vs ${mb(smallest.heldBytes)})`,
      pass: beyond <= MEMORY_TARGET,
    });
  }
  return targets;
}

function mb(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** The figures as a table. */
export function formatMediaLogRecount(result: RecountBenchResult): string {
  const rows = result.sizes.map((size) => [
    formatCount(size.entries),
    formatCount(size.counters),
    formatCount(size.corrected),
    `${(size.recountMs / 1000).toFixed(1)} s`,
    `${(size.twoScansMs / 1000).toFixed(1)} s`,
    formatRatio(ratio(size.twoScansMs, size.recountMs)),
    formatCount(Math.round((2 * size.entries * 1000) / size.recountMs)),
    mb(size.heldBytes),
    mb(size.counterBytes),
    `${((size.heldBytes / size.entries) | 0).toString()} B`,
  ]);
  return [
    'The log grows within one month of five users: the counters stay the same items while the entries grow. Entries stored uncounted, so every counter is corrected.',
    formatTable(['entries', 'counter items', 'corrected', 'recount', 'two bare scans', 'vs scans', 'entries/s read', 'heap held', 'counters held (stored bytes)', 'heap per entry'], rows),
  ].join('\n');
}
