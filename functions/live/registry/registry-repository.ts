import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LIVE_CONNECTION_ATTRIBUTES } from '../../shared/tables/live-connections-table';
import { connectionFields, connectionItem, connectionOf, type LiveConnection } from '../model/live-connection';
import { JOURNAL_PARTITION, journalTime, liveKeys, REGISTRY_BUCKETS } from '../model/live-keys';
import type { UserConnections } from '../model/user-connections';
import { journalEntryOf, type JournalEntry } from './journal';

/** How long a journal item is kept: far longer than any reader's overlap, short enough to keep the partition small. */
const JOURNAL_SECONDS = 15 * 60;

/** Thrown when a write lost a race with another (a connect beside another, a change beside a change): read again and retry. */
export class RegistryConflictError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'RegistryConflictError';
  }
}

const expiry = LIVE_CONNECTION_ATTRIBUTES.expiresAt;
const seconds = (ms: number) => Math.floor(ms / 1000);

/**
 * The watcher registry in the live connections table: connections and their subscriptions, each
 * user's open connections, and the journal of changes the notifier follows. Every change of a
 * connection's subscriptions or scope is written with its journal item in one transaction, so a
 * reader of the journal misses none.
 */
export class RegistryRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The open connections of a user, strongly consistent (a connect decides on it). */
  public async userConnections(userId: number): Promise<UserConnections | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: liveKeys.userConnections(userId), ConsistentRead: true }));
    return Item === undefined ? undefined : { connections: (Item.connections as Record<string, number>) ?? {}, version: Item.version as number };
  }

  /**
   * Register a new connection and the user's list with it (from `read`, the list as read), in one
   * transaction: another connect that changed the list meanwhile makes this one fail with a
   * {@link RegistryConflictError}.
   */
  public async open(connection: LiveConnection, read: UserConnections | undefined, connections: Readonly<Record<string, number>>): Promise<void> {
    const { userId } = connection.caller;
    const listExpires = Math.max(...Object.values(connections)) + 600;
    await this.transact(`The connections of user ${userId} changed meanwhile.`, [
      {
        Update: {
          TableName: this.tableName,
          Key: liveKeys.userConnections(userId),
          UpdateExpression: 'SET connections = :connections, version = :next, #expiry = :expires',
          ConditionExpression: read === undefined ? 'attribute_not_exists(pk)' : 'version = :read',
          ExpressionAttributeNames: { '#expiry': expiry },
          ExpressionAttributeValues: { ':connections': connections, ':next': (read?.version ?? 0) + 1, ':expires': listExpires, ...(read === undefined ? {} : { ':read': read.version }) },
        },
      },
      { Put: { TableName: this.tableName, Item: connectionItem(connection), ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
  }

  /** A connection as registered now, or undefined when it is gone. */
  public async connection(connectionId: string): Promise<LiveConnection | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: liveKeys.connection(connectionId), ConsistentRead: true }));
    return Item === undefined ? undefined : connectionOf(Item);
  }

  /**
   * Store `next`, a revision of `current` (its subscriptions or its directory changed), with its
   * journal item, unless the connection changed or went meanwhile ({@link RegistryConflictError}).
   */
  public async revise(current: LiveConnection, next: Pick<LiveConnection, 'subscriptions' | 'directory'>, atMs: number): Promise<LiveConnection> {
    const revised: LiveConnection = { ...current, ...next, revision: current.revision + 1 };
    await this.transact(`Connection ${current.connectionId} changed or closed meanwhile.`, [
      {
        Update: {
          TableName: this.tableName,
          Key: liveKeys.connection(current.connectionId),
          UpdateExpression: 'SET subscriptions = :subscriptions, directory = :directory, revision = :next',
          ConditionExpression: 'revision = :read',
          ExpressionAttributeValues: { ':subscriptions': revised.subscriptions, ':directory': revised.directory, ':next': revised.revision, ':read': current.revision },
        },
      },
      { Put: { TableName: this.tableName, Item: this.journalItem(atMs, revised.connectionId, revised.revision, { connection: connectionFields(revised) }) } },
    ]);
    return revised;
  }

  /**
   * Remove a connection: its registry item, its place in its user's list, and, when it had
   * subscriptions, a journal item that tells the notifiers. Returns what was registered, or
   * undefined when it was gone already (removing twice is harmless).
   */
  public async remove(connectionId: string, atMs: number): Promise<LiveConnection | undefined> {
    const { Attributes } = await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: liveKeys.connection(connectionId), ReturnValues: 'ALL_OLD' }));
    if (Attributes === undefined) return undefined;
    const removed = connectionOf(Attributes);
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: liveKeys.userConnections(removed.caller.userId),
          UpdateExpression: 'REMOVE connections.#id SET version = version + :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#id': connectionId },
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
    if (Object.keys(removed.subscriptions).length > 0) {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: this.journalItem(atMs, connectionId, removed.revision + 1, { removed: true }) }));
    }
    return removed;
  }

  /** Every connection of one registry partition (a full read, page by page). */
  public async registryPartition(bucket: number): Promise<LiveConnection[]> {
    const items = await this.queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': liveKeys.registryPartition(bucket) } });
    return items.map(connectionOf);
  }

  /** Every registered connection: all registry partitions, read side by side. */
  public async everything(): Promise<LiveConnection[]> {
    const partitions = await Promise.all(Array.from({ length: REGISTRY_BUCKETS }, (_, bucket) => this.registryPartition(bucket)));
    return partitions.flat();
  }

  /**
   * The journal after `afterMs`, oldest first, strongly consistent: a change committed before the
   * read is in it (its transaction wrote both), whatever replica answers.
   */
  public async journalSince(afterMs: number): Promise<JournalEntry[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND sk > :after',
      ExpressionAttributeValues: { ':pk': JOURNAL_PARTITION, ':after': journalTime(afterMs) },
      ConsistentRead: true,
    });
    return items.map(journalEntryOf).filter((entry): entry is JournalEntry => entry !== undefined);
  }

  /** Say in the journal that the notifier of `shardId` is delivering, so the others share the rate limits with it. */
  public async heartbeat(shardId: string, atMs: number): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { ...liveKeys.journal(atMs, `S#${shardId}`), shard: shardId, [expiry]: seconds(atMs) + JOURNAL_SECONDS } }));
  }

  /** Write `items` in one transaction; a condition that failed (a race lost) is a {@link RegistryConflictError} saying `conflict`. */
  private async transact(conflict: string, items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>): Promise<void> {
    try {
      await this.client.send(new TransactWriteCommand({ TransactItems: items }));
    } catch (error) {
      if (error instanceof TransactionCanceledException) throw new RegistryConflictError(conflict);
      throw error;
    }
  }

  private journalItem(atMs: number, connectionId: string, revision: number, change: Record<string, unknown>): Record<string, unknown> {
    return { ...liveKeys.journal(atMs, `C#${connectionId}#${revision}`), connectionId, revision, ...change, [expiry]: seconds(atMs) + JOURNAL_SECONDS };
  }

  private async queryAll(input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.client.send(new QueryCommand({ ...input, TableName: this.tableName, ...(start === undefined ? {} : { ExclusiveStartKey: start }) }));
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
    return items;
  }
}
