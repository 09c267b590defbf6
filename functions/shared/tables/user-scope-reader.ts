import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { usersKeys } from './users-keys';
import { USER_INDEX_ATTRIBUTES, userListIndexName, type USER_LIST_SCOPES } from './users-table';

/** Most members of a scope read; a user with more sub users than this sees the first ones by id. */
const MAX_MEMBERS = 10_000;

/**
 * Which users belong together, for features that scope their own data by user (the media log): a
 * family (a user of role `user` and its sub users) and the root users, by id. Read from the users
 * table's id-sorted listing indexes, which project the id: no profile is read.
 */
export class UserScopeReader {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** A user of role `user` and its sub users, the user first. */
  public async familyMemberIds(userId: number): Promise<number[]> {
    const ids = await this.idsIn('family', usersKeys.scope.family(userId));
    return [userId, ...ids.filter((id) => id !== userId)];
  }

  /** The root users (a handful of operator accounts). */
  public async rootUserIds(): Promise<number[]> {
    return this.idsIn('role', usersKeys.scope.role('root'));
  }

  /** The ids in one partition of a scope's `…-by-id` index, ascending, page after page up to the cap. */
  private async idsIn(scope: (typeof USER_LIST_SCOPES)[number], value: string): Promise<number[]> {
    const ids: number[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const { Items = [], LastEvaluatedKey } = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: userListIndexName(scope, 'id'),
          KeyConditionExpression: '#scope = :value',
          ExpressionAttributeNames: { '#scope': USER_INDEX_ATTRIBUTES.scope[scope], '#id': 'id' },
          ExpressionAttributeValues: { ':value': value },
          ProjectionExpression: '#id',
          Limit: MAX_MEMBERS - ids.length,
          ...(start === undefined ? {} : { ExclusiveStartKey: start }),
        }),
      );
      ids.push(...Items.map((item) => Number(item.id)));
      start = LastEvaluatedKey;
    } while (start !== undefined && ids.length < MAX_MEMBERS);
    return ids;
  }
}
