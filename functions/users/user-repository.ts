import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { toAvatarRecord, type AvatarRecord } from '../avatars/avatar-record';
import { ConflictError, NotFoundError, PreconditionFailedError } from '../shared/errors';
import { UserPartitionReader } from '../shared/tables/user-partition';
import { userItems, usersKeys } from '../shared/tables/users-keys';
import { toUserRecord, type UserRecord } from './user-record';
import { totalsUpdates } from './user-totals';

/** A new user, before an id is allocated: the profile fields an operator chooses. */
export type NewUser = Pick<UserRecord, 'email' | 'username' | 'role' | 'status' | 'parentId' | 'firstName' | 'lastName'> & {
  /** Token subject; defaults to `local:<id>`, which no external issuer issues. */
  readonly subject?: string;
  readonly plan?: UserRecord['plan'];
  readonly additionalEmails?: UserRecord['additionalEmails'];
};

/** A profile with its avatars, as one read of the user's partition returns them. */
export interface UserWithAvatars {
  readonly user: UserRecord;
  readonly avatars: readonly AvatarRecord[];
}

/** The token subject of a user created without one: never a bare number an external issuer could issue. */
export function localSubject(id: number): string {
  return `local:${id}`;
}

/** The refusal of an email another user holds. */
export function emailTakenError(): ConflictError {
  return new ConflictError('A user with this email already exists.', [{ name: 'email', reason: 'Already in use.' }]);
}

/**
 * Users in DynamoDB: profiles, the claims that keep emails and token subjects unique, the id
 * sequence and the per-role/status totals. Every multi-item change is one transaction, so a profile
 * never exists without its claims and the totals never drift.
 */
export class UserRepository {
  private readonly partitions: UserPartitionReader;

  /** On `client`'s table `tableName`, whose user partitions hold at most `maxAvatars` avatars (the upload cap). */
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    maxAvatars: number,
  ) {
    this.partitions = new UserPartitionReader(client, tableName, maxAvatars);
  }

  /** The profile of user `id`, or null. Strongly consistent: a write is visible to the next read. */
  public async findById(id: number): Promise<UserRecord | null> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: usersKeys.profile(id), ConsistentRead: true }));
    return Item ? toUserRecord(Item) : null;
  }

  /**
   * Whether a user holds `email` (case-insensitively): a look before an irreversible step, such as
   * an invitation. The create transaction's claim still decides.
   */
  public async emailClaimed(email: string): Promise<boolean> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: usersKeys.email(email), ConsistentRead: true }));
    return Item !== undefined;
  }

  /** The profile of user `id` and its avatars, in one read of the user's partition. */
  public async findWithAvatars(id: number): Promise<UserWithAvatars | null> {
    const { profile, avatars } = await this.partitions.read(id);
    return profile === null ? null : { user: toUserRecord(profile), avatars: avatars.map(toAvatarRecord) };
  }

  /** The avatars of user `id` (its profile read already). */
  public async avatarsOf(id: number): Promise<AvatarRecord[]> {
    return (await this.partitions.avatars(id)).map(toAvatarRecord);
  }

  /** Allocate the next user id from the atomic sequence. */
  private async nextId(): Promise<number> {
    const { Attributes } = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: usersKeys.idSequence,
        UpdateExpression: 'ADD #value :one',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Attributes?.value as number;
  }

  /**
   * Create a user: profile, email and subject claims and totals in one transaction. A taken email
   * or subject is a 409; a parent that is gone or no longer of role `user` fails the transaction
   * too (404).
   */
  public async create(input: NewUser, now = new Date()): Promise<UserRecord> {
    const id = await this.nextId();
    const timestamp = now.toISOString();
    const record: UserRecord = {
      id,
      subject: input.subject ?? localSubject(id),
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
    const items = userItems(record);
    const fresh = (item: object) => ({ Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } });
    const parentCheck = input.parentId === null ? [] : [{
      ConditionCheck: {
        TableName: this.tableName,
        Key: usersKeys.profile(input.parentId),
        ConditionExpression: '#role = :user',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':user': 'user' },
      },
    }];
    try {
      await this.client.send(
        new TransactWriteCommand({
          TransactItems: [
            fresh(items.profile),
            // The claims and the parent check keep these positions: cancellation reasons are read by position below.
            fresh(items.email),
            fresh(items.subject),
            ...parentCheck,
            ...totalsUpdates(this.tableName, [record, 1]),
          ],
        }),
      );
    } catch (error) {
      if (error instanceof TransactionCanceledException) {
        const failed = (index: number) => error.CancellationReasons?.[index]?.Code === 'ConditionalCheckFailed';
        if (failed(1)) throw emailTakenError();
        if (failed(2)) throw new ConflictError('Another user already answers to this token subject.', [{ name: 'subject', reason: 'Already in use.' }]);
        if (parentCheck.length > 0 && failed(3)) throw new NotFoundError('The parent user does not exist or is not of role user.');
      }
      throw error;
    }
    return record;
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
          Key: usersKeys.profile(id),
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
