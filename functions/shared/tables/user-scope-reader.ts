import { BatchGetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { exponentialDelay, realSleep, retryUnprocessed, type Backoff } from '../async/retry';
import { chunksOf } from '../chunks';
import { usersKeys } from './users-keys';
import { USER_INDEX_ATTRIBUTES, userListIndexName, type USER_LIST_SCOPES } from './users-table';

/** Most keys of one BatchGetItem. */
const BATCH_GET_KEYS = 100;
/** Rounds of a BatchGetItem's unprocessed keys, 20 × 2^n ms apart, before giving up (throttling that does not let up). */
const BATCH_GET_BACKOFF: Backoff = { attempts: 8, delayMs: exponentialDelay(20, 1000), sleep: realSleep };

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

  /**
   * The top user of each of `userIds`: a sub user's parent, any other user itself (a user the table
   * does not hold too: its entries are its own family). One strongly consistent BatchGetItem per
   * hundred users, projected to the parent: an entry written after a sub user moved is keyed to its
   * new family, never to the one it left.
   */
  public async topUsersOf(userIds: readonly number[]): Promise<Map<number, number>> {
    const tops = new Map<number, number>([...new Set(userIds)].map((id) => [id, id]));
    for (const chunk of chunksOf([...tops.keys()], BATCH_GET_KEYS)) {
      const keys: Record<string, unknown>[] = chunk.map((id) => usersKeys.profile(id));
      await retryUnprocessed(keys, async (pending) => {
        const output = await this.client.send(
          new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: [...pending], ConsistentRead: true, ProjectionExpression: 'id, parentId' } } }),
        );
        for (const item of output.Responses?.[this.tableName] ?? []) {
          if (typeof item.parentId === 'number') tops.set(Number(item.id), item.parentId);
        }
        return output.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }, BATCH_GET_BACKOFF);
    }
    return tops;
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
