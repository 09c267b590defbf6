import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { comboAttribute, counterAddition, entryCounterKeys } from '../counters';
import { entryFromItem } from '../entry-item';
import { mediaLogKeys, STATUS_STORAGE } from '../media-log-keys';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { STATUS_FIELDS, type MediaLogEntry } from '../schemas';
import { bucketOf } from '../time-buckets';
import type { StatusChange } from './feed-messages';
import { MAX_TRANSACTION_ATTEMPTS, realSleep, retryingTransaction, type Sleep } from './transaction-retry';

/** What a status change did: changed the entry, or nothing (a duplicate, or older than the stored status). */
export type StatusOutcome = 'applied' | 'ignored';

/** A status change for an entry that is not stored (yet): the feed retries it until its request arrives. */
export class UnknownEntryError extends Error {
  public constructor(public readonly id: string) {
    super(`No entry with id ${id} is stored (yet).`);
    this.name = 'UnknownEntryError';
  }
}

/** A status field's value and when it was set, as stored. */
interface Stamped {
  readonly value: string;
  readonly at: string;
}

/**
 * Whether `change` wins over `stored`: a later `at`, or at the same `at` the greater value by name.
 * Every change either wins or not whatever arrived before it, so the stored status is the greatest
 * change ever delivered: the same for any delivery order, and a duplicate never wins.
 */
export function supersedes(change: Stamped, stored: Stamped): boolean {
  return change.at > stored.at || (change.at === stored.at && change.value > stored.value);
}

const STORED_ATTRIBUTES = ['id', 'send', 'url', 'userId', ...STATUS_FIELDS.flatMap((field) => [STATUS_STORAGE[field].attribute, STATUS_STORAGE[field].changedAt])];

/**
 * Applies status changes of the media pipeline feed to stored entries. One change is one
 * transaction: the entry's field, its time and its status partition, on condition that the field
 * is still as read, and the move of the entry between status combinations in each of its counters,
 * so every total and status filter stays exact whatever the order and the repetitions of changes.
 */
export class StatusWriter {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly sleep: Sleep = realSleep,
  ) {}

  /** Apply one change; an entry not stored is an {@link UnknownEntryError}. */
  public async apply(change: StatusChange): Promise<StatusOutcome> {
    // A concurrent change of the same field fails the condition: read again and decide again.
    for (let attempt = 1; ; attempt += 1) {
      const item = await this.read(change.id);
      if (item === null) throw new UnknownEntryError(change.id);
      const storage = STATUS_STORAGE[change.field];
      const entry = entryFromItem(item);
      const stored = { value: entry[change.field], at: typeof item[storage.changedAt] === 'string' ? (item[storage.changedAt] as string) : entry.send };
      if (!supersedes(change, stored)) return 'ignored';
      try {
        await retryingTransaction(() => this.client.send(new TransactWriteCommand({ TransactItems: this.transactItems(entry, item, change) })), this.sleep);
        return 'applied';
      } catch (error) {
        const changedMeanwhile = error instanceof TransactionCanceledException && error.CancellationReasons?.[0]?.Code === 'ConditionalCheckFailed';
        if (!changedMeanwhile || attempt >= MAX_TRANSACTION_ATTEMPTS) throw error;
        await this.sleep(Math.random() * 10 * attempt);
      }
    }
  }

  private async read(id: string): Promise<Record<string, unknown> | null> {
    const { Item } = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: mediaLogKeys.entry(id),
        ConsistentRead: true,
        ProjectionExpression: STORED_ATTRIBUTES.map((_, index) => `#p${index}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(STORED_ATTRIBUTES.map((name, index) => [`#p${index}`, name])),
      }),
    );
    return Item ?? null;
  }

  private transactItems(entry: MediaLogEntry, item: Record<string, unknown>, change: StatusChange) {
    const storage = STATUS_STORAGE[change.field];
    const changed: MediaLogEntry = { ...entry, [change.field]: change.value };
    const hadStamp = typeof item[storage.changedAt] === 'string';
    const update = {
      Update: {
        TableName: this.tableName,
        Key: mediaLogKeys.entry(entry.id),
        UpdateExpression: 'SET #value = :value, #at = :at, #partition = :partition',
        // Exactly the state read: the counters below move the entry out of the combination it had.
        ConditionExpression: hadStamp ? '#value = :was AND #at = :wasAt' : '#value = :was AND attribute_not_exists(#at)',
        ExpressionAttributeNames: { '#value': storage.attribute, '#at': storage.changedAt, '#partition': MEDIA_LOG_ATTRIBUTES.partition[storage.partition] },
        ExpressionAttributeValues: {
          ':value': change.value,
          ':at': change.at,
          ':partition': mediaLogKeys.status(change.value, bucketOf('month', entry.send)),
          ':was': entry[change.field],
          ...(hadStamp ? { ':wasAt': item[storage.changedAt] } : {}),
        },
      },
    };
    const from = comboAttribute(entry);
    const to = comboAttribute(changed);
    if (from === to) return [update];
    const moves = entryCounterKeys(entry).map((key) => ({ Update: counterAddition(this.tableName, key, new Map([[from, -1], [to, 1]])) }));
    return [update, ...moves];
  }
}
