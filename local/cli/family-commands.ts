import { FamilyMoves } from '../../functions/media-log/family/family-moves';
import { FamilyRekey, type RekeyReport } from '../../functions/media-log/family/family-rekey';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { UserScopeReader } from '../../functions/shared/tables/user-scope-reader';
import { usersTable } from '../../functions/shared/tables/users-table';
import { parseCommand } from './arguments';
import { foldWrittenChanges, withData } from './data-access';

/**
 * The media log side of a user's family changing (DESIGN.md 7b, round five): the entries of a sub
 * user moved to another parent are re-keyed to the new family, and entries written before families
 * were kept get theirs (`media-log backfill-families`). Both run in the command, with progress on
 * stderr; the fold moves the counts between the families' counters.
 */

/** The re-key on the data the command works on. */
function familyRekey(): FamilyRekey {
  const client = getDocumentClient();
  return new FamilyRekey(client, tableName(mediaLogTable), new FamilyMoves(client, tableName(mediaLogTable)));
}

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
  const moves = new FamilyMoves(getDocumentClient(), tableName(mediaLogTable));
  await moves.mark(userId, [from, to]);
  return { cancel: () => moves.clear(userId, [from, to]) };
}

/**
 * Re-key the entries of `userId`, whose family (top user) changed from `from` to `to`: called by
 * `user update` inside its data access, once the user is updated. Until it returns, the listings of
 * both families leave the user's entries out and say their totals are inexact.
 */
export async function moveUserEntries(userId: number, from: number, to: number): Promise<RekeyReport> {
  const progress = progressLine(`re-keying the media log entries of user ${userId} from family ${from} to family ${to} (listings of both families leave them out until done)`);
  const report = await familyRekey().move(userId, from, to, progress.update);
  progress.end(report);
  await foldWrittenChanges();
  return report;
}

/** `media-log backfill-families`: key every entry written before families were kept to its user's family. */
export async function mediaLogBackfillFamilies(args: string[]): Promise<void> {
  parseCommand(args, {});
  const report = await withData(async () => {
    const progress = progressLine('keying entries to their family');
    const done = await familyRekey().backfill(new UserScopeReader(getDocumentClient(), tableName(usersTable)), progress.update);
    progress.end(done);
    await foldWrittenChanges();
    return done;
  });
  process.stdout.write(`${report.rekeyed} entries keyed to their family, ${report.entries - report.rekeyed} already keyed\n`);
}
