import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { exponentialDelay, retryUnprocessed } from '../shared/async/retry';
import { ServiceUnavailableError } from '../shared/errors';
import { UserPartitionReader } from '../shared/tables/user-partition';
import { usersKeys } from '../shared/tables/users-keys';
import { avatarItem, toAvatarOwner, toAvatarRecord, type AvatarRecord, type OwnedAvatars } from './avatar-record';
import { AvatarsChangedError, AvatarWriteCancelledError } from './errors';

/**
 * Avatar records in the users table: `USER#<id>` / `AVATAR#<uuid>` items beside the profile, which
 * names the enabled one in `currentAvatarId` (a user's profile and avatars are read together, from
 * its partition). Every change of a user's avatars is one transaction with a write of the profile
 * that is conditional on the profile version read before, and increments it: changes of one user's
 * avatars are serialised, and the ETag of the User (whose `avatars` they change) moves with them.
 */

/** A user and avatar id pair, as an object key names them. */
export interface AvatarKey {
  readonly userId: number;
  readonly avatarId: string;
}

/** Cancellation reasons that mean DynamoDB is throttling: a 503, not a bug. */
const THROTTLED_CODES: ReadonlySet<string | undefined> = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

/** BatchGetItem reads at most this many keys per request. */
const BATCH_GET_LIMIT = 100;

/** Unprocessed keys mean throttling: back off a little before asking for them again, up to ~5 s in all. */
const UNPROCESSED_KEYS_BACKOFF = { attempts: 8, delayMs: exponentialDelay(50, 1000) } as const;

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>;

function cancellationCodes(error: TransactionCanceledException): (string | undefined)[] {
  return (error.CancellationReasons ?? []).map((reason) => reason.Code);
}

/** The avatar records of the users table. */
export class AvatarRepository {
  private readonly partitions: UserPartitionReader;

  /** On `client`'s table `tableName`, whose user partitions hold at most `maxAvatars` avatars (the upload cap). */
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    maxAvatars: number,
  ) {
    this.partitions = new UserPartitionReader(client, tableName, maxAvatars);
  }

  /** The owner `userId` (its profile) and its avatars, or null when there is no such user. */
  public async findOwner(userId: number): Promise<OwnedAvatars | null> {
    const { profile, avatars } = await this.partitions.read(userId);
    return profile === null ? null : { owner: toAvatarOwner(profile), avatars: avatars.map(toAvatarRecord) };
  }

  /** The avatars of `userId`, for an owner whose profile the request has read already. */
  public async avatarsOf(userId: number): Promise<AvatarRecord[]> {
    return (await this.partitions.avatars(userId)).map(toAvatarRecord);
  }

  /**
   * Records a new avatar and makes it the user's current one, if the profile is still at
   * `profileVersion`; `replaced`, an avatar that makes room under the cap, is deleted in the same
   * transaction.
   *
   * @throws AvatarsChangedError when the profile is gone or at another version; nothing was written.
   * @throws AvatarWriteCancelledError when DynamoDB cancelled the transaction otherwise; nothing was written.
   * Any other error leaves the outcome unknown.
   */
  public async add(avatar: AvatarRecord, profileVersion: number, options: { now?: Date; replaced?: AvatarRecord } = {}): Promise<void> {
    const { now = new Date(), replaced } = options;
    await this.transact([
      { Put: { TableName: this.tableName, Item: avatarItem(avatar), ConditionExpression: 'attribute_not_exists(pk)' } },
      this.profileUpdate(avatar.userId, avatar.avatarId, profileVersion, now),
      ...(replaced ? [this.avatarDelete(replaced)] : []),
    ]);
  }

  /**
   * Deletes an avatar record and sets the user's current avatar to `currentAvatarId`, if the
   * profile is still at `profileVersion`. Throws as {@link add} does.
   */
  public async remove(avatar: AvatarRecord, currentAvatarId: string | null, profileVersion: number, now = new Date()): Promise<void> {
    await this.transact([
      this.avatarDelete(avatar),
      this.profileUpdate(avatar.userId, currentAvatarId, profileVersion, now),
    ]);
  }

  /**
   * Moves the profile of `userId` past `profileVersion`, if it is still there: afterwards no avatar
   * transaction planned at that version can ever succeed. True when this call moved it, false when
   * the profile had already changed (or is gone).
   */
  public async fence(userId: number, profileVersion: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: usersKeys.profile(userId),
          UpdateExpression: 'ADD #version :one',
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':one': 1, ':version': profileVersion },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Whether the avatar record exists (strongly consistent). */
  public async exists(key: AvatarKey): Promise<boolean> {
    const { Item } = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: usersKeys.avatar(key.userId, key.avatarId), ConsistentRead: true, ProjectionExpression: 'pk' }),
    );
    return Item !== undefined;
  }

  /** The object keys that the records of `keys` point at (those records that exist). */
  public async recordedObjectKeys(keys: readonly AvatarKey[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < keys.length; start += BATCH_GET_LIMIT) {
      const batch = keys.slice(start, start + BATCH_GET_LIMIT).map((key) => usersKeys.avatar(key.userId, key.avatarId));
      await retryUnprocessed(batch, async (pending) => {
        const { Responses, UnprocessedKeys } = await this.client.send(
          new BatchGetCommand({
            RequestItems: { [this.tableName]: { Keys: [...pending], ConsistentRead: true, ProjectionExpression: 'objectKey' } },
          }),
        );
        for (const item of Responses?.[this.tableName] ?? []) found.add(item.objectKey as string);
        return (UnprocessedKeys?.[this.tableName]?.Keys ?? []) as typeof batch;
      }, UNPROCESSED_KEYS_BACKOFF);
    }
    return found;
  }

  private avatarDelete(avatar: AvatarRecord) {
    return { Delete: { TableName: this.tableName, Key: usersKeys.avatar(avatar.userId, avatar.avatarId), ConditionExpression: 'attribute_exists(pk)' } };
  }

  private profileUpdate(userId: number, currentAvatarId: string | null, profileVersion: number, now: Date) {
    return {
      Update: {
        TableName: this.tableName,
        Key: usersKeys.profile(userId),
        UpdateExpression: 'SET #current = :current, #updated = :updated ADD #version :one',
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#current': 'currentAvatarId', '#updated': 'updated', '#version': 'version' },
        ExpressionAttributeValues: { ':current': currentAvatarId, ':updated': now.toISOString(), ':one': 1, ':version': profileVersion },
      },
    };
  }

  private async transact(items: TransactItems): Promise<void> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = cancellationCodes(error);
      if (codes.includes('ConditionalCheckFailed') || codes.includes('TransactionConflict')) throw new AvatarsChangedError(error);
      const cause = codes.some((code) => THROTTLED_CODES.has(code)) ? new ServiceUnavailableError(undefined, error) : error;
      throw new AvatarWriteCancelledError(`DynamoDB cancelled the avatar transaction (${codes.join(', ')}).`, cause);
    }
  }
}
