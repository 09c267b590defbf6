import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName } from '../../shared/tables/media-log-table';
import { parallelScan, scanShape } from '../../shared/tables/parallel-scan';
import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { familyAttributes } from '../model/entry-item';
import { ENTRY_KEY_PREFIX, mediaLogKeys } from '../model/keys';
import type { FamilyMoves } from './family-moves';

/**
 * Re-keying entries to their family (DESIGN.md 7b, round five): a sub user moved to another parent
 * takes its entries along, and entries written before families were kept get theirs. Each entry is
 * one conditional update of its family and its family index partition; the fold sees the change
 * in the stream and moves the entry from the old family's counters to the new one's, as it moves
 * an entry between status combinations. Nothing else is written: no counter, no transaction.
 */

/** Updates in flight at once: each is one small write. */
const UPDATES_IN_FLIGHT = 8;
/** Passes over a moved user's entries: an entry its feed batch keyed to the old family just before the move shows up in the next pass. */
const MAX_PASSES = 3;
/** Segments of the backfill's parallel Scan read at once (each page's updates are {@link UPDATES_IN_FLIGHT} at a time). */
const SCAN_WORKERS = 4;

/** What a re-key did: entries looked at, and those whose family it changed. */
export interface RekeyReport {
  readonly entries: number;
  readonly rekeyed: number;
}

/** One entry to key to a family: its id, its user and the family. */
export interface RekeyTarget {
  readonly id: string;
  readonly userId: number;
  readonly familyId: number;
}

/**
 * The update that keys entry `id` to family `familyId`, a plan the executor sends as it is: on
 * condition that the entry exists (a deleted entry is not brought back as a bare family item) and
 * is not in that family already (a repeated re-key writes nothing the fold would see).
 */
export function rekeyUpdate(tableName: string, target: RekeyTarget): UpdateCommandInput {
  const { set, removed } = familyAttributes(target.id, target.userId, target.familyId);
  const names = Object.keys(set);
  const removes = removed.length > 0 ? ` REMOVE ${removed.map((_, index) => `#r${index}`).join(', ')}` : '';
  return {
    TableName: tableName,
    Key: mediaLogKeys.entry(target.id),
    UpdateExpression: `SET ${names.map((_, index) => `#a${index} = :a${index}`).join(', ')}${removes}`,
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#a0) OR #a0 <> :a0)',
    ExpressionAttributeNames: Object.fromEntries([...names.map((name, index) => [`#a${index}`, name]), ...removed.map((name, index) => [`#r${index}`, name])]),
    ExpressionAttributeValues: Object.fromEntries(names.map((name, index) => [`:a${index}`, set[name]])),
  };
}

/** Runs re-keys against the media log table. */
export class FamilyRekey {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly moves: FamilyMoves,
  ) {}

  /**
   * Move the entries of `userId` from family `from` to family `to`: both families are marked first
   * (their listings leave the user's entries out and say their totals are inexact), every entry of
   * the user is re-keyed, pass after pass until one changes nothing, and the marks are cleared.
   * A failure leaves the marks: the listings stay safe, and running the move again finishes it.
   */
  public async move(userId: number, from: number, to: number, onProgress?: (report: RekeyReport) => void): Promise<RekeyReport> {
    await this.moves.mark(userId, [from, to]);
    // Each pass reads every entry of the user: its entries are the last pass's, the re-keyed ones those of every pass.
    let total = { entries: 0, rekeyed: 0 };
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const before = total.rekeyed;
      const report = await this.rekeyUser(userId, to, (done) => onProgress?.({ entries: done.entries, rekeyed: before + done.rekeyed }));
      total = { entries: report.entries, rekeyed: before + report.rekeyed };
      if (report.rekeyed === 0) break;
    }
    await this.moves.clear(userId, [from, to]);
    return total;
  }

  /** Key every entry of `userId` to `familyId`, read from the user's own partitions (keys only). */
  public async rekeyUser(userId: number, familyId: number, onProgress?: (report: RekeyReport) => void): Promise<RekeyReport> {
    const sums = { entries: 0, rekeyed: 0 };
    for (const partition of mediaLogKeys.userShards(userId)) {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: mediaLogIndexName('user'),
            KeyConditionExpression: '#partition = :partition',
            ExpressionAttributeNames: { '#partition': MEDIA_LOG_ATTRIBUTES.partition.user },
            ExpressionAttributeValues: { ':partition': partition },
            ExclusiveStartKey: start,
          }),
        );
        await this.rekeyAll((page.Items ?? []).map((item) => ({ id: mediaLogKeys.idOf(String(item.pk)), userId, familyId })), sums);
        onProgress?.({ ...sums });
        start = page.LastEvaluatedKey;
      } while (start !== undefined);
    }
    return sums;
  }

  /**
   * Key every entry without a family (written before families were kept) to the family of its user
   * now: a parallel Scan of the table, the users' families read a hundred per BatchGetItem and kept
   * for the run, split by the table's size (`tableBytes`, DescribeTable's `TableSizeBytes`).
   * Running it again finds nothing to do.
   */
  public async backfill(users: Pick<UserScopeReader, 'topUsersOf'>, onProgress?: (report: RekeyReport) => void, tableBytes?: number): Promise<RekeyReport> {
    const sums = { entries: 0, rekeyed: 0 };
    const tops = new Map<number, number>();
    const scan = {
      TableName: this.tableName,
      FilterExpression: 'begins_with(pk, :entry) AND attribute_not_exists(#family)',
      ProjectionExpression: 'pk, #user',
      ExpressionAttributeNames: { '#family': MEDIA_LOG_ATTRIBUTES.family, '#user': MEDIA_LOG_ATTRIBUTES.userId },
      ExpressionAttributeValues: { ':entry': ENTRY_KEY_PREFIX },
    };
    await parallelScan(this.client, scan, scanShape(tableBytes, SCAN_WORKERS), async (page) => {
      const items = page.map((item) => ({ id: mediaLogKeys.idOf(String(item.pk)), userId: Number(item[MEDIA_LOG_ATTRIBUTES.userId]) }));
      const unknown = [...new Set(items.map((item) => item.userId))].filter((id) => !tops.has(id));
      if (unknown.length > 0) for (const [id, top] of await users.topUsersOf(unknown)) tops.set(id, top);
      await this.rekeyAll(items.map(({ id, userId }) => ({ id, userId, familyId: tops.get(userId) ?? userId })), sums);
      onProgress?.({ ...sums });
    });
    return sums;
  }

  /** Send the re-key of each entry, counting those it changed into `sums`. */
  private async rekeyAll(targets: readonly RekeyTarget[], sums: { entries: number; rekeyed: number }): Promise<void> {
    await mapConcurrently(targets, UPDATES_IN_FLIGHT, async (target) => {
      sums.entries += 1;
      try {
        await this.client.send(new UpdateCommand(rekeyUpdate(this.tableName, target)));
        sums.rekeyed += 1;
      } catch (error) {
        // Already in that family (or gone): nothing to change.
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    });
  }
}
