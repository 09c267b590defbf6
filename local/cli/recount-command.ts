import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { describeRecountTables, MediaLogRecount, type RecountReport } from '../../functions/media-log/fold/recount';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { statusToStderr } from '../backends';
import { parseCommand } from './arguments';
import { progressBar } from './progress';
import { UsageError } from './cli-errors';
import { waitForFold, withData } from './data-access';
import { FoldBehindError } from '../fold/fold-progress';
import { Retention } from '../../functions/media-log/model/retention';

/**
 * The longest the recount waits for the fold to count what was written before its first scan
 * ended. It waits on the fold's measured progress (local/fold/fold-progress.ts), so this only
 * bounds a fold that is stuck or far behind: its lag alarm fires above a minute, and a fold ten
 * minutes behind is an incident to mend before counters are corrected.
 */
const DEFAULT_SETTLE_SECONDS = 600;

/** Counter items not verified, listed in the message (the report on stdout has them all). */
const LISTED = 10;

function settleSeconds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SETTLE_SECONDS;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < foldMediaLogCountsFunction.maxBatchingWindowSeconds) {
    throw new UsageError(`--settle takes whole seconds, the longest wait for the fold: at least its batching window (${foldMediaLogCountsFunction.maxBatchingWindowSeconds}) and at most 9999.`);
  }
  return Number(raw);
}

/** A report shaped for the terminal: the counts, and each correction and busy item by key. */
function printable(report: RecountReport): object {
  return {
    entries: report.entries,
    counters: report.counters,
    corrected: report.corrected.map(({ pk, sk, added }) => ({ counter: `${pk} ${sk}`, added })),
    busy: report.busy.map(({ pk, sk }) => `${pk} ${sk}`),
  };
}

/**
 * `media-log recount [--settle SECONDS]`: rebuild every media log counter from a scan of the
 * entries while the fold runs (functions/media-log/fold/recount.ts), and print what it corrected.
 * Between its two scans it waits until the fold has counted every change written before the first
 * one ended, on the fold's measured progress (`waitForFold`: locally it also drains the data
 * directory's fold), at most `--settle` seconds (600 unless told); a fold still behind then fails
 * the recount before it corrects anything. Exits 1 when some counter items were being written by
 * the fold meanwhile: run it again to verify those.
 */
export async function mediaLogRecount(args: string[]): Promise<void> {
  const { values } = parseCommand(args, { settle: { type: 'string' } });
  const settle = settleSeconds(values.settle);
  let scanned = 0;
  const report = await withData(async () => {
    const tables = { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) };
    const described = await describeRecountTables(getDocumentClient(), tables);
    const recount = new MediaLogRecount(getDocumentClient(), tables, Retention.configured(), Date.now, described);
    statusToStderr('recounting the media log: scanning every counter and entry twice…');
    const bars = [progressBar('recount, first scan', described.entryCount ?? 0)];
    try {
      return await recount.run(
        async () => {
          bars[0]?.stop();
          await waitForFold('recount', settle).catch((error: unknown) => {
            if (error instanceof FoldBehindError) throw new Error(`${error.message}. The recount corrected nothing: run it again once the fold has caught up (its lag alarm is clear).`);
            throw error;
          });
        },
        (scan, entries) => {
          // The second scan's total is what the first one read.
          if (scan === 2 && bars.length === 1) bars.push(progressBar('recount, second scan', scanned));
          bars[scan - 1]?.update(entries);
          if (scan === 1) scanned = entries;
        },
      );
    } finally {
      for (const bar of bars) bar.stop();
    }
  });
  process.stdout.write(`${JSON.stringify(printable(report), null, 2)}\n`);
  statusToStderr(`${report.entries} entries, ${report.counters} counter items: ${report.corrected.length} corrected, ${report.busy.length} being written by the fold (not verified)`);
  if (report.busy.length > 0) {
    const listed = report.busy.slice(0, LISTED).map(({ pk, sk }) => `${pk} ${sk}`).join(', ');
    throw new RecountIncomplete(`${report.busy.length} counter item(s) were written by the fold while they were counted (${listed}${report.busy.length > LISTED ? ', …' : ''}): run the recount again to verify them.`);
  }
}

/** A recount that left counter items unverified (the fold wrote them meanwhile). */
export class RecountIncomplete extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'RecountIncomplete';
  }
}
