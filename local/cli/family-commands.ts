import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { familyChanges, type FamilyChange } from '../../functions/media-log/family/family-changes';
import { rekeyMovedUsersFunction } from '../../functions/media-log/family/family-functions';
import type { RekeyReport } from '../../functions/media-log/family/family-rekey';
import { familyMoves, familyRekey } from '../../functions/media-log/family/family-stores';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { UserScopeReader } from '../../functions/shared/tables/user-scope-reader';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { usersTable } from '../../functions/shared/tables/users-table';
import { localDataDir } from '../environment';
import { dataDirCheckpoints } from '../fold/media-log-fold';
import { LocalStreamConsumer } from '../fold/stream-consumer';
import { userProfiles } from '../tool-composition';
import { parseCommand, parseUserId } from './arguments';
import { UsageError } from './cli-errors';
import { foldWrittenChanges, targetsDeployment, withData } from './data-access';

/**
 * The media log side of a user's family changing (DESIGN.md 7b, round five): the entries of a sub
 * user moved to another parent are re-keyed to the new family, and entries written before families
 * were kept get theirs (`media-log backfill-families`). Locally both run in the command, with
 * progress on stderr; the fold moves the counts between the families' counters.
 */

/** A progress line on stderr, at most every two seconds and once at the end. */
function progressLine(label: string): { update: (report: RekeyReport) => void; end: (report: RekeyReport) => void } {
  let last = 0;
  const line = (report: RekeyReport) => process.stderr.write(`${label}: ${report.entries} entries read, ${report.rekeyed} re-keyed\n`);
  return {
    update: (report) => {
      if (performance.now() - last < 2000) return;
      last = performance.now();
      line(report);
    },
    end: line,
  };
}

/** Mark `userId` as moving between families `from` and `to` before its profile changes; `cancel` clears the marks when the change is refused. */
export async function markMove(userId: number, from: number, to: number): Promise<{ cancel: () => Promise<void> }> {
  const moves = familyMoves(getDocumentClient());
  await moves.mark(userId, [from, to]);
  return { cancel: () => moves.clear(userId, [from, to]) };
}

/** Whether the entries of `userId` are still being re-keyed into `familyId` (its family's move marker holds it). */
export async function stillMoving(userId: number, familyId: number): Promise<boolean> {
  return (await familyMoves(getDocumentClient()).movingUsers(familyId)).includes(userId);
}

/**
 * The re-key of `userId`'s entries, whose family (top user) changed from `from` to `to`: called by
 * `user update` inside its data access, once the user is updated. In AWS the stack's
 * `rekeyMovedUsers` does it in the background, from the users table's stream; locally this command
 * runs that consumer over the data directory's stream up to its end (as `npm start` runs it, with
 * the same checkpoints), then folds. Until the re-key is done, the listings of both families leave
 * the user's entries out and say their totals are inexact.
 */
export async function moveUserEntries(userId: number, from: number, to: number): Promise<void> {
  process.stderr.write(`the media log entries of user ${userId} move from family ${from} to family ${to} in the background; until done, the listings of both families leave them out\n`);
  if (targetsDeployment()) return;
  const consumer = new LocalStreamConsumer(rekeyMovedUsersFunction, dataDirCheckpoints(localDataDir(), rekeyMovedUsersFunction.name), async (event) => {
    for (const change of familyChanges(event.Records)) await rekeyWithProgress(change);
    return { state: {}, batchItemFailures: [] };
  });
  try {
    await consumer.drain();
  } finally {
    await consumer.stop();
  }
  await foldWrittenChanges();
}

/** Move one user's entries between families, with a progress line. */
async function rekeyWithProgress({ userId, from, to }: FamilyChange): Promise<RekeyReport> {
  const progress = progressLine(`re-keying the media log entries of user ${userId} from family ${from} to family ${to} (listings of both families leave them out until done)`);
  const report = await familyRekey(getDocumentClient()).move(userId, from, to, progress.update);
  progress.end(report);
  return report;
}

/** `media-log rekey ID --from FAMILY`: finish a move the background re-key gave up on (its failure queue's advice). */
export async function mediaLogRekey(args: string[]): Promise<void> {
  const { values, positionals } = parseCommand(args, { from: { type: 'string' } }, 1);
  const id = parseUserId(positionals[0], 'media-log rekey');
  const from = parseUserId(values.from, '--from');
  if (id === undefined || from === undefined) throw new UsageError('media-log rekey takes a user ID and --from FAMILY (the family it left).');
  const report = await withData(async () => {
    const user = await userProfiles().describe(id);
    const done = await rekeyWithProgress({ userId: id, from, to: user.parent?.id ?? user.id });
    await foldWrittenChanges();
    return done;
  });
  process.stdout.write(`${report.rekeyed} entries re-keyed, ${report.entries - report.rekeyed} already in their family\n`);
}

/** `media-log backfill-families`: key every entry written before families were kept to its user's family. */
export async function mediaLogBackfillFamilies(args: string[]): Promise<void> {
  parseCommand(args, {});
  const report = await withData(async () => {
    const progress = progressLine('keying entries to their family');
    const { Table } = await getDocumentClient().send(new DescribeTableCommand({ TableName: tableName(mediaLogTable) }));
    const done = await familyRekey(getDocumentClient()).backfill(new UserScopeReader(getDocumentClient(), tableName(usersTable)), progress.update, Table?.TableSizeBytes);
    progress.end(done);
    await foldWrittenChanges();
    return done;
  });
  process.stdout.write(`${report.rekeyed} entries keyed to their family, ${report.entries - report.rekeyed} already keyed\n`);
}
