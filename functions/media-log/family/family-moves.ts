import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mediaLogKeys } from '../model/keys';

/**
 * The move markers of families (`MOVE#<family id>`, keys.ts): the users whose entries are being
 * re-keyed into or out of a family, because a sub user moved to another parent. The re-key
 * (family-rekey.ts) marks both families before it starts and clears them once every entry is
 * re-keyed; a family's listing reads its marker (one GetItem) and leaves those users' entries out
 * meanwhile, with its total said inexact. A marker is an item of the media log table that is no
 * entry: the fold's stream filter passes entries only.
 */

/** The attribute of a marker holding the moving users (a number set). */
const MOVING_USERS = 'users';

/** Reads and writes the move markers of families. */
export class FamilyMoves {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The users being re-keyed into or out of `familyId`, ascending (none without a marker). */
  public async movingUsers(familyId: number): Promise<number[]> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: mediaLogKeys.familyMoves(familyId), ProjectionExpression: '#users', ExpressionAttributeNames: { '#users': MOVING_USERS } }));
    const users = Item?.[MOVING_USERS];
    return users instanceof Set ? [...(users as Set<number>)].map(Number).sort((a, b) => a - b) : [];
  }

  /** Mark `userId` as moving in each of `families`. */
  public async mark(userId: number, families: readonly number[]): Promise<void> {
    await Promise.all([...new Set(families)].map((familyId) => this.change('ADD', familyId, userId)));
  }

  /** Clear `userId` from the markers of `families` (an empty set is removed with its attribute). */
  public async clear(userId: number, families: readonly number[]): Promise<void> {
    await Promise.all([...new Set(families)].map((familyId) => this.change('DELETE', familyId, userId)));
  }

  private async change(action: 'ADD' | 'DELETE', familyId: number, userId: number): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: mediaLogKeys.familyMoves(familyId),
        UpdateExpression: `${action} #users :user`,
        ExpressionAttributeNames: { '#users': MOVING_USERS },
        ExpressionAttributeValues: { ':user': new Set([userId]) },
      }),
    );
  }
}
