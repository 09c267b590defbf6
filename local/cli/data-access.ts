import { getDocumentClient } from '../../functions/shared/aws/clients';
import { CLIENT_ENV, tableName } from '../../functions/shared/config/data-config';
import { mediaLogDeltasTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { usersTable } from '../../functions/shared/tables/users-table';
import { connectOrStartBackends, statusToStderr } from '../backends';
import { seconds } from '../backends/startup-status';
import { localDataDir, useLocalEnvironment } from '../environment';
import { FoldProgress, type FoldProgressReport } from '../fold/fold-progress';
import { dataDirCheckpointsOf, foldPendingChanges } from '../fold/media-log-fold';
import { streamsClient } from '../fold/stream-consumer';
import { BACKEND_SECTIONS, checkSettings, FUNCTION_SECTIONS } from '../local-settings';
import type { LocalSigningKey } from '../signing-key';
import { progressBar, type Progress } from './progress';

/** Whether the CLI works on deployed tables: their names are configured and no local endpoint is. */
export function targetsDeployment(): boolean {
  return Boolean(process.env[usersTable.nameEnv]) && !process.env[CLIENT_ENV.dynamodbEndpoint];
}

/**
 * Run `work` against the data the command is about: the deployed tables (from the environment), or
 * the local back-ends of the data directory — those of a running `npm start`, or started for the
 * duration of the command and stopped after. What it connects to, or starts, is said on stderr.
 */
export async function withData<T>(work: (key: LocalSigningKey | null) => Promise<T>): Promise<T> {
  if (targetsDeployment()) {
    statusToStderr(`working on the deployed tables (${process.env[usersTable.nameEnv]}, …) in ${process.env[CLIENT_ENV.region] ?? 'the default region'}`);
    return work(null);
  }
  // The functions run in this process: a limit they cannot use is one line now, not a stack trace later.
  checkSettings([...FUNCTION_SECTIONS, ...BACKEND_SECTIONS]);
  const dataDir = localDataDir();
  const started = performance.now();
  const backends = await connectOrStartBackends(dataDir, { status: statusToStderr });
  if (backends.started.length > 0) {
    // Starting DynamoDB Local takes seconds on every command: say how to avoid the wait.
    statusToStderr(`back-ends ready in ${seconds(performance.now() - started)}; they stop when this command ends (a running \`npm start\` on the same DATA_DIR saves this wait)`);
  }
  try {
    const key = await useLocalEnvironment(dataDir, backends);
    return await work(key);
  } finally {
    await backends.stop();
  }
}

/**
 * Count what a command wrote to the media log before it returns, so a listing right after it is
 * exact: locally, fold the data directory's stream up to its end (as `npm start` does every quarter
 * second). Against the deployed tables the stack's fold does it, within its lag.
 */
export async function foldWrittenChanges(): Promise<void> {
  if (targetsDeployment()) return;
  await foldPendingChanges(dataDirCheckpointsOf(localDataDir()));
}

/**
 * Wait until the fold has counted every change made to the media log up to now, on its measured
 * progress (local/fold/fold-progress.ts), at most `timeoutSeconds`: locally the data directory's
 * fold is drained first (and between looks, in case no `npm start` polls it); against the deployed
 * tables the stack's fold does the work and this only watches. A progress line per stage, only when
 * the first look finds the fold behind. A {@link FoldBehindError} when the time runs out.
 */
export async function waitForFold(label: string, timeoutSeconds: number): Promise<FoldProgressReport> {
  const mark = Date.now();
  const drain = targetsDeployment() ? undefined : () => foldPendingChanges(dataDirCheckpointsOf(localDataDir()));
  await drain?.();
  const progress = new FoldProgress(getDocumentClient(), streamsClient(), { entries: tableName(mediaLogTable), deltas: tableName(mediaLogDeltasTable) });
  let first: Progress | undefined;
  let second: Progress | undefined;
  let unapplied = 0;
  try {
    return await progress.waitFor(mark, {
      timeoutMs: timeoutSeconds * 1000,
      ...(drain === undefined ? {} : { between: drain }),
      onLook: (report) => {
        if (report.settled && first === undefined) return;
        if (first === undefined) {
          statusToStderr(`${label}: waiting up to ${timeoutSeconds} s for the fold to count every change up to ${new Date(mark).toISOString()}…`);
          first = progressBar(`${label}, fold stage one (stream shards caught up)`, report.shards.total);
        }
        first.update(report.shards.caughtUp);
        if (report.shards.caughtUp < report.shards.total) return;
        if (second === undefined) {
          unapplied = report.unapplied;
          second = progressBar(`${label}, fold stage two (deltas applied)`, unapplied);
        }
        second.update(Math.max(0, unapplied - report.unapplied));
      },
    });
  } finally {
    first?.stop();
    second?.stop();
  }
}
