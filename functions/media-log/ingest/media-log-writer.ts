import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../shared/errors';
import { comboAttribute, entryCounterKeys, TOTAL_ATTRIBUTE } from '../counters';
import { entryFromItem, entryItem } from '../entry-item';
import { mediaLogKeys } from '../media-log-keys';
import type { MediaLogEntry } from '../schemas';

/** What writing an entry did: stored it, or found the very same entry already stored (a retry). */
export type WriteOutcome = 'written' | 'unchanged';

/** Attempts of a transaction that lost a conflict on a counter to a concurrent writer. */
const MAX_ATTEMPTS = 10;
const BACKOFF_BASE_MS = 10;

function sameEntry(a: MediaLogEntry, b: MediaLogEntry): boolean {
  return (Object.keys(a) as (keyof MediaLogEntry)[]).every((field) => a[field] === b[field]);
}

/**
 * Stores media log entries together with their counters. One entry is one transaction: the entry
 * (only if its id is new) and an increment of each of its counters, so totals never drift and a
 * retried import neither stores an entry twice nor counts it twice.
 */
export class MediaLogWriter {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /**
   * Store a validated entry. An entry with the same id and the same fields is left alone
   * (`unchanged`); the same id with different fields is a 409.
   */
  public async write(entry: MediaLogEntry): Promise<WriteOutcome> {
    const command = new TransactWriteCommand({ TransactItems: this.transactItems(entry) });
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.client.send(command);
        return 'written';
      } catch (error) {
        if (!(error instanceof TransactionCanceledException)) throw error;
        const reasons = error.CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return this.compareWithStored(entry);
        // Counters are shared by concurrent writers; a conflict resolves itself after a short wait.
        if (attempt >= MAX_ATTEMPTS || !reasons.some((reason) => reason.Code === 'TransactionConflict')) throw error;
        await this.sleep(Math.random() * BACKOFF_BASE_MS * 2 ** Math.min(attempt, 6));
      }
    }
  }

  private transactItems(entry: MediaLogEntry) {
    const combo = comboAttribute(entry);
    const put = {
      Put: { TableName: this.tableName, Item: entryItem(entry), ConditionExpression: 'attribute_not_exists(pk)' },
    };
    const increments = entryCounterKeys(entry).map((key) => ({
      Update: {
        TableName: this.tableName,
        Key: key,
        UpdateExpression: 'ADD #total :one, #combo :one',
        ExpressionAttributeNames: { '#total': TOTAL_ATTRIBUTE, '#combo': combo },
        ExpressionAttributeValues: { ':one': 1 },
      },
    }));
    return [put, ...increments];
  }

  private async compareWithStored(entry: MediaLogEntry): Promise<WriteOutcome> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: mediaLogKeys.entry(entry.id), ConsistentRead: true }));
    if (Item && sameEntry(entryFromItem(Item), entry)) return 'unchanged';
    throw new ConflictError(`A different entry with id ${entry.id} is already stored.`, [{ name: 'id', reason: 'Already used by a different entry.' }]);
  }
}
