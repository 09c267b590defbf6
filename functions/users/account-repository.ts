import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AvatarRecord } from '../avatars/avatar-record';
import { USER_STATUSES } from '../shared/access/roles';
import { ConflictError } from '../shared/errors';
import { USER_INDEX_ATTRIBUTES } from '../shared/tables/users-table';
import { familyOf, listingAttributes, totalsAttribute, usersKeys } from '../shared/tables/users-keys';
import type { UserRecord } from './user-record';
import { totalsUpdates } from './user-totals';

/** A change of an account's role, status, parent or names, as an operator makes it. */
export type AccountChange = Partial<Pick<UserRecord, 'role' | 'status' | 'parentId' | 'firstName' | 'lastName'>>;

/** A transaction item, with the error to throw when its condition fails. */
type GuardedItem = readonly [item: unknown, refusal?: () => Error];

const changedMeanwhile = (): Error => new ConflictError('The user changed meanwhile (or is gone); read it again.');

/**
 * The operator's writes of accounts (`cli user update`, `cli user delete`): each is one transaction
 * conditional on the profile version read before, which moves the user between the totals it is
 * counted in and keeps the listing partitions, the claims and the family rule consistent.
 */
export class AccountRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Apply `change` to `before` (as read); the profile must still be at `before.version`. */
  public async change(before: UserRecord, change: AccountChange, now = new Date()): Promise<UserRecord> {
    const after: UserRecord = { ...before, ...change, updated: now.toISOString(), version: before.version + 1 };
    const counted = before.role !== after.role || before.status !== after.status || familyOf(before) !== familyOf(after);
    const totals = counted ? totalsUpdates(this.tableName, [before, -1], [after, 1]) : [];
    await this.transact([
      [this.profileUpdate(before, after), changedMeanwhile],
      ...(after.parentId !== null && after.parentId !== before.parentId ? [[this.parentCheck(after.parentId), parentRefused] as const] : []),
      ...this.guardedTotals(totals, before.role === 'user' && after.role !== 'user' ? before.id : null, roleKeptBySubUsers),
    ]);
    return after;
  }

  /** Delete `user` (as read) with its claims and its avatar records; the profile must still be at its version. */
  public async delete(user: UserRecord, avatars: readonly AvatarRecord[]): Promise<void> {
    const profile = { Delete: { TableName: this.tableName, Key: usersKeys.profile(user.id), ConditionExpression: '#version = :version', ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':version': user.version } } };
    const deletion = (key: { pk: string; sk: string }) => [{ Delete: { TableName: this.tableName, Key: key } }] as const;
    await this.transact([
      [profile, changedMeanwhile],
      deletion(usersKeys.email(user.email)),
      deletion(usersKeys.subject(user.subject)),
      ...avatars.map((avatar) => deletion(usersKeys.avatar(avatar.userId, avatar.avatarId))),
      ...this.guardedTotals(totalsUpdates(this.tableName, [user, -1]), user.role === 'user' ? user.id : null, deletionKeptBySubUsers),
    ]);
  }

  private profileUpdate(before: UserRecord, after: UserRecord) {
    const { scope } = USER_INDEX_ATTRIBUTES;
    const listing = listingAttributes(after);
    const fields: Record<string, unknown> = {
      role: after.role, status: after.status, parentId: after.parentId, firstName: after.firstName, lastName: after.lastName,
      updated: after.updated, version: after.version, [scope.role]: listing[scope.role],
      ...(listing[scope.family] === undefined ? {} : { [scope.family]: listing[scope.family] }),
    };
    const names = Object.fromEntries(Object.keys(fields).map((field, index) => [`#f${index}`, field]));
    const values = Object.fromEntries(Object.values(fields).map((value, index) => [`:f${index}`, value]));
    const sets = Object.keys(fields).map((_, index) => `#f${index} = :f${index}`);
    // A user who leaves every family (root, admin) leaves the family index too.
    const remove = listing[scope.family] === undefined ? ` REMOVE #family` : '';
    return {
      Update: {
        TableName: this.tableName,
        Key: usersKeys.profile(before.id),
        UpdateExpression: `SET ${sets.join(', ')}${remove}`,
        ConditionExpression: '#version = :expected',
        ExpressionAttributeNames: { ...names, '#version': 'version', ...(remove ? { '#family': scope.family } : {}) },
        ExpressionAttributeValues: { ...values, ':expected': before.version },
      },
    };
  }

  private parentCheck(parentId: number) {
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: usersKeys.profile(parentId),
        ConditionExpression: '#role = :user',
        ExpressionAttributeNames: { '#role': 'role' },
        ExpressionAttributeValues: { ':user': 'user' },
      },
    };
  }

  /**
   * The totals updates, the one of `family`'s totals (when given) made conditional on the family
   * counting no sub user of any status: its kept totals say so exactly. A user who leaves role
   * `user` or is deleted must not leave sub users without a parent.
   */
  private guardedTotals(updates: ReturnType<typeof totalsUpdates>, family: number | null, refusal: () => Error): GuardedItem[] {
    if (family === null) return updates.map((item) => [item]);
    const familyKey = usersKeys.totals({ family }).sk;
    const names = Object.fromEntries(USER_STATUSES.map((status, index) => [`#s${index}`, totalsAttribute('sub', status)]));
    const condition = USER_STATUSES.map((_, index) => `(attribute_not_exists(#s${index}) OR #s${index} = :zero)`).join(' AND ');
    return updates.map((item): GuardedItem => {
      if (item.Update.Key.sk !== familyKey) return [item];
      const Update = {
        ...item.Update,
        ConditionExpression: condition,
        ExpressionAttributeNames: { ...item.Update.ExpressionAttributeNames, ...names },
        ExpressionAttributeValues: { ...item.Update.ExpressionAttributeValues, ':zero': 0 },
      };
      return [{ Update }, refusal];
    });
  }

  private async transact(items: readonly GuardedItem[]): Promise<void> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items.map(([item]) => item) as never }));
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const failed = (error.CancellationReasons ?? []).findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      const refusal = items[failed]?.[1];
      throw refusal ? refusal() : error;
    }
  }
}

function parentRefused(): Error {
  return new ConflictError('The parent user does not exist or is not of role user.', [{ name: 'parent', reason: 'Must be a user of role user.' }]);
}

const SUB_USERS_FIRST = 'The user has sub users: delete or move them first.';

function roleKeptBySubUsers(): Error {
  return new ConflictError(SUB_USERS_FIRST, [{ name: 'role', reason: 'A user with sub users keeps role user.' }]);
}

// A deletion changes no field: naming `role` would point at a change nobody asked for.
function deletionKeptBySubUsers(): Error {
  return new ConflictError(SUB_USERS_FIRST);
}
