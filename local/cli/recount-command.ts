import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { MediaLogRecount, type RecountReport } from '../../functions/media-log/fold/recount';
import { foldMediaLogCountsFunction } from '../../functions/media-log/fold/stream-functions';
import { realSleep } from '../../functions/shared/async/retry';
import { statusToStderr } from '../backends';
import { localDataDir } from '../environment';
import { dataDirCheckpointsOf, foldPendingChanges } from '../fold/media-log-fold';
import { parseCommand } from './arguments';
import { progressBar } from './progress';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { UsageError } from './cli-errors';
import { targetsDeployment, withData } from './data-access';
import { Retention } from '../../functions/media-log/model/retention';

/**
 * How long the recount waits, against the deployed tables, for the stack's fold to apply what was
 * written before it: the mapping's batching window, a batch's fold and Lambda's polling, with room
 * to spare; the lag alarm fires above a minute, so a fold within its alarm is within this.
 */
const DEFAULT_SETTLE_SECONDS = 90;

/** Counter items not verified, listed in the message (the report on stdout has them all). */
const LISTED = 10;

function settleSeconds(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_SETTLE_SECONDS;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < foldMediaLogCountsFunction.maxBatchingWindowSeconds) {
    throw new UsageError(`--settle takes whole seconds, at least the fold's batching window (${foldMediaLogCountsFunction.maxBatchingWindowSeconds}) and at most 9999.`);
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
 * Locally the fold of the data directory is drained where the recount waits for it; against the
 * deployed tables it waits `--settle` seconds (90 unless told) for the stack's fold. Exits 1 when
 * some counter items were being written by the fold meanwhile: run it again to verify those.
 */
export async function mediaLogRecount(args: string[]): Promise<void> {
  const { values } = parseCommand(args, { settle: { type: 'string' } });
  const settle = settleSeconds(values.settle);
  let scanned = 0;
  const report = await withData(async () => {
    const recount = new MediaLogRecount(getDocumentClient(), { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) }, Retention.configured());
    statusToStderr('recounting the media log: scanning every counter and entry twice…');
    // The item count DynamoDB keeps (refreshed about every six hours in AWS): the first bar's total, no more.
    const { Table } = await getDocumentClient().send(new DescribeTableCommand({ TableName: tableName(mediaLogTable) }));
    const bars = [progressBar('recount, first scan', Table?.ItemCount ?? 0)];
    try {
      return await recount.run(
        async () => {
          bars[0]?.stop();
          if (targetsDeployment()) {
            statusToStderr(`waiting ${settle} s for the fold to apply what was written before the scan…`);
            await realSleep(settle * 1000);
          } else await foldPendingChanges(dataDirCheckpointsOf(localDataDir()));
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
