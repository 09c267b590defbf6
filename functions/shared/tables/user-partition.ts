import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AccessTarget } from '../access/access-policy';
import type { Role } from '../access/roles';
import { usersKeys } from './users-keys';

/** A stored item, as the document client returns it. */
export type StoredItem = Readonly<Record<string, unknown>>;

/** The stored profile item of user `id` in `tableName`, or null when the user is gone. Strongly consistent. */
export async function readProfile(client: DynamoDBDocumentClient, tableName: string, id: number): Promise<StoredItem | null> {
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: usersKeys.profile(id), ConsistentRead: true }));
  return Item ?? null;
}

/** User `id` as its stored profile item places it for the access rules. */
export function accessTargetOf(id: number, profile: StoredItem): AccessTarget {
  return { id, role: profile.role as Role, parentId: (profile.parentId as number | null | undefined) ?? null };
}

/** What a user's partition holds: its profile item (if the user exists) and its avatar items. */
export interface UserPartition {
  readonly profile: StoredItem | null;
  readonly avatars: readonly StoredItem[];
}

/**
 * Reads of one user's partition of the users table (`USER#<id>`: the profile and the avatars),
 * shared by the users and avatars code, each of which maps the items to its own records. Reads are
 * strongly consistent: a write is visible to the next request.
 */
export class UserPartitionReader {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Most avatars a user holds (the upload cap); a partition holds at most this many and its profile. */
    private readonly maxAvatars: number,
  ) {}

  /**
   * The profile and the avatars in one Query. Read newest key first, `PROFILE` sorts after every
   * `AVATAR#…` and so comes first: however many avatar items a partition holds, the profile is on
   * the first page, and the read stops after the avatars a user may hold.
   */
  public async read(userId: number): Promise<UserPartition> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': usersKeys.partition(userId) },
        ScanIndexForward: false,
        Limit: this.maxAvatars + 1,
        ConsistentRead: true,
      }),
    );
    const profile = Items.find((item) => item.sk === usersKeys.profileSortKey) ?? null;
    return { profile, avatars: Items.filter((item) => String(item.sk).startsWith(usersKeys.avatarPrefix)) };
  }

  /** The avatar items alone, for a caller whose profile this request has read already. */
  public async avatars(userId: number): Promise<StoredItem[]> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :avatar)',
        ExpressionAttributeValues: { ':pk': usersKeys.partition(userId), ':avatar': usersKeys.avatarPrefix },
        Limit: this.maxAvatars,
        ConsistentRead: true,
      }),
    );
    return Items;
  }
}
