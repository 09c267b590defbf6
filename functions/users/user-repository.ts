import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../shared/errors';
import type { Role, UserStatus } from '../shared/access/roles';
import { familyOf, listingAttributes, totalsAttribute, userKeys } from './user-keys';
import type { AuthIdentity, AvatarRecord, UserRecord } from './user-record';

/** A new user, before an id is allocated: the profile fields an operator chooses. */
export type NewUser = Pick<UserRecord, 'email' | 'username' | 'role' | 'status' | 'parentId' | 'firstName' | 'lastName'> & {
  /** Token subject; defaults to the allocated id. */
  readonly subject?: string;
  readonly plan?: UserRecord['plan'];
  readonly additionalEmails?: UserRecord['additionalEmails'];
};

/** A profile with its avatars, as one Query of the user's partition returns them. */
export interface UserWithAvatars {
  readonly user: UserRecord;
  readonly avatars: readonly AvatarRecord[];
}

const PROFILE_FIELDS = [
  'id', 'subject', 'email', 'username', 'role', 'status', 'parentId', 'firstName', 'lastName',
  'additionalEmails', 'plan', 'currentAvatarId', 'created', 'updated', 'version',
] as const;

function toUserRecord(item: Record<string, unknown>): UserRecord {
  const record = Object.fromEntries(PROFILE_FIELDS.map((field) => [field, item[field] ?? null]));
  return record as unknown as UserRecord;
}

function toAvatarRecord(item: Record<string, unknown>): AvatarRecord {
  return {
    userId: item.userId as number,
    avatarId: item.avatarId as string,
    created: item.created as string,
    objectKey: item.objectKey as string,
    provider: item.provider as string,
  };
}

/**
 * Users in DynamoDB: profiles, the email claims that keep addresses unique, the id sequence and
 * the per-role/status totals. Every multi-item change is one transaction, so a profile never exists
 * without its email claim and the totals never drift.
 */
export class UserRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The profile of user `id`, or null. Strongly consistent: a write is visible to the next read. */
  public async findById(id: number): Promise<UserRecord | null> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: userKeys.profile(id), ConsistentRead: true }));
    return Item ? toUserRecord(Item) : null;
  }

  /** The profile of user `id` and its avatars, in one Query of the user's partition. */
  public async findWithAvatars(id: number): Promise<UserWithAvatars | null> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': userKeys.partition(id) },
        ConsistentRead: true,
      }),
    );
    const profile = Items.find((item) => item.sk === userKeys.profileSortKey);
    if (!profile) return null;
    const avatars = Items.filter((item) => String(item.sk).startsWith(userKeys.avatarPrefix)).map(toAvatarRecord);
    return { user: toUserRecord(profile), avatars };
  }

  /** The user a token subject answers to, through the by-subject index, or null. */
  public async findIdentityBySubject(subject: string): Promise<AuthIdentity | null> {
    const { Items = [] } = await this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'by-subject',
        KeyConditionExpression: 'subject = :subject',
        ExpressionAttributeValues: { ':subject': subject },
        Limit: 1,
      }),
    );
    const item = Items[0];
    if (!item) return null;
    return { id: item.id as number, role: item.role as Role, status: item.status as UserStatus, parentId: (item.parentId as number | null) ?? null };
  }

  /** Allocate the next user id from the atomic sequence. */
  private async nextId(): Promise<number> {
    const { Attributes } = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: userKeys.idSequence,
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Attributes?.value as number;
  }

  /**
   * Create a user: profile, email claim and total in one transaction. A taken email is a 409; a
   * parent that is gone or no longer of role `user` fails the transaction too (404).
   */
  public async create(input: NewUser, now = new Date()): Promise<UserRecord> {
    const id = await this.nextId();
    const timestamp = now.toISOString();
    const record: UserRecord = {
      id,
      subject: input.subject ?? String(id),
      email: input.email,
      username: input.username,
      role: input.role,
      status: input.status,
      parentId: input.parentId,
      firstName: input.firstName,
      lastName: input.lastName,
      additionalEmails: input.additionalEmails ?? null,
      plan: input.plan ?? null,
      currentAvatarId: null,
      created: timestamp,
      updated: timestamp,
      version: 1,
    };
    const parentCheck = input.parentId === null ? [] : [{
      ConditionCheck: {
        TableName: this.tableName,
        Key: userKeys.profile(input.parentId),
        ConditionExpression: '#role = :user',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':user': 'user' },
      },
    }];
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: this.tableName, Item: { ...userKeys.profile(id), ...record, ...listingAttributes(record) }, ConditionExpression: 'attribute_not_exists(pk)' } },
            { Put: { TableName: this.tableName, Item: { ...userKeys.email(input.email), userId: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
            // The parent check stays third: its cancellation reason is read by position below.
            ...parentCheck,
            ...this.totalsUpdates(record, 1),
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        const reasons = error.CancellationReasons ?? [];
        if (reasons[1]?.Code === 'ConditionalCheckFailed') {
          throw new ConflictError('A user with this email already exists.', [{ name: 'email', reason: 'Already in use.' }]);
        }
        if (parentCheck.length > 0 && reasons[2]?.Code === 'ConditionalCheckFailed') throw new NotFoundError('The parent user does not exist or is not of role user.');
      }
      throw error;
    }
    return record;
  }

  /** Count the user in the totals of every listing scope it shows in: everyone, and its family. */
  private totalsUpdates(user: Pick<UserRecord, 'id' | 'role' | 'status' | 'parentId'>, delta: number) {
    const family = familyOf(user);
    const scopes: ('all' | { family: number })[] = family === null ? ['all'] : ['all', { family }];
    return scopes.map((scope) => ({
      Update: {
        TableName: this.tableName,
        Key: userKeys.totals(scope),
        UpdateExpression: 'ADD #combo :delta',
        ExpressionAttributeNames: { '#combo': totalsAttribute(user.role, user.status) },
        ExpressionAttributeValues: { ':delta': delta },
      },
    }));
  }

  /**
   * Set the names of user `id` and bump its version, atomically. With `expectedVersion` (If-Match)
   * a profile changed since is refused with 412; either way no concurrent update is lost, since
   * each write only sets the fields it names and increments the version in place.
   */
  public async updateNames(
    id: number,
    names: { firstName?: string; lastName?: string },
    expectedVersion?: number,
    now = new Date(),
  ): Promise<UserRecord> {
    const sets = ['#updated = :updated'];
    const values: Record<string, unknown> = { ':updated': now.toISOString(), ':one': 1 };
    const attributeNames: Record<string, string> = { '#updated': 'updated', '#version': 'version' };
    if (names.firstName !== undefined) {
      sets.push('#firstName = :firstName');
      values[':firstName'] = names.firstName;
      attributeNames['#firstName'] = 'firstName';
    }
    if (names.lastName !== undefined) {
      sets.push('#lastName = :lastName');
      values[':lastName'] = names.lastName;
      attributeNames['#lastName'] = 'lastName';
    }
    let condition = 'attribute_exists(pk)';
    if (expectedVersion !== undefined) {
      condition += ' AND #version = :expected';
      values[':expected'] = expectedVersion;
    }
    try {
      const { Attributes } = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: userKeys.profile(id),
          UpdateExpression: `SET ${sets.join(', ')} ADD #version :one`,
          ConditionExpression: condition,
          ExpressionAttributeNames: attributeNames,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return toUserRecord(Attributes ?? {});
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        if (!error.Item) throw new NotFoundError();
        throw new PreconditionFailedError();
      }
      throw error;
    }
  }
}
