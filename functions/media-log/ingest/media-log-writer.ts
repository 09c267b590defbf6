import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../../shared/errors';
import { counterAddition } from '../counters';
import { entryFromItem, entryItem } from '../entry-item';
import { mediaLogKeys } from '../media-log-keys';
import { REQUEST_FIELDS, type MediaLogEntry } from '../schemas';
import { chunkCounters, planLanes } from './write-chunks';
import { realSleep, retryingTransaction, type Sleep } from './transaction-retry';

/** What writing an entry did: stored it, or found the same request already stored (a retry). */
export type WriteOutcome = 'written' | 'unchanged';

/** The result of one entry of a batch: its outcome, or why it was not written. */
export type EntryResult = WriteOutcome | Error;

/** Options of {@link MediaLogWriter.writeAll}. */
export interface WriteAllOptions {
  /** Called after each transaction with how many entries it settled (for progress bars). */
  readonly onSettled?: (count: number) => void;
}

/** Whether two entries are the same request: statuses may have moved on since, the rest never does. */
function sameRequest(a: MediaLogEntry, b: MediaLogEntry): boolean {
  return REQUEST_FIELDS.every((field) => a[field] === b[field]);
}

function conflict(id: string): ConflictError {
  return new ConflictError(`A different entry with id ${id} is already stored.`, [{ name: 'id', reason: 'Already used by a different entry.' }]);
}

/**
 * Stores new media log entries together with their counters. Entries go in transactions of up to
 * 100 items (each entry, only if its id is new, and its counters, summed per counter item across
 * the transaction's entries), in lanes by user written at once, so totals never drift, a retried
 * import neither stores nor counts an entry twice, and a crash leaves whole transactions only.
 */
export class MediaLogWriter {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly sleep?: Sleep,
  ) {}

  /**
   * Store one validated entry. The same request already stored is left alone (`unchanged`, its
   * statuses may have moved on since); the same id with another send time, url or user is a 409.
   */
  public async write(entry: MediaLogEntry): Promise<WriteOutcome> {
    const [result] = await this.writeAll([entry]);
    if (result instanceof Error) throw result;
    return result as WriteOutcome;
  }

  /**
   * Store validated entries; the results are in the order of `entries`. An entry is `unchanged`
   * when the same request is stored already (or comes earlier in `entries`), a {@link ConflictError}
   * when its id holds a different one, another error when its transaction failed (nothing of that
   * transaction is stored; the other transactions are).
   */
  public async writeAll(entries: readonly MediaLogEntry[], options: WriteAllOptions = {}): Promise<EntryResult[]> {
    const results: EntryResult[] = new Array<EntryResult>(entries.length);
    const indexes = new Map<string, number>();
    const unique: MediaLogEntry[] = [];
    entries.forEach((entry, index) => {
      const first = indexes.get(entry.id);
      if (first === undefined) {
        indexes.set(entry.id, index);
        unique.push(entry);
      } else results[index] = sameRequest(entries[first] as MediaLogEntry, entry) ? 'unchanged' : conflict(entry.id);
    });
    const repeats = entries.length - indexes.size;
    if (repeats > 0) options.onSettled?.(repeats);
    const settle = (entry: MediaLogEntry, result: EntryResult) => {
      results[indexes.get(entry.id) as number] = result;
    };
    await Promise.all(
      planLanes(unique).map(async ({ shard, chunks }) => {
        for (const chunk of chunks) {
          await this.writeChunk(chunk, shard, settle);
          options.onSettled?.(chunk.length);
        }
      }),
    );
    return results;
  }

  /** Write one chunk: entries already stored are settled first; the others in one transaction. */
  private async writeChunk(chunk: readonly MediaLogEntry[], shard: number, settle: (entry: MediaLogEntry, result: EntryResult) => void): Promise<void> {
    let pending = await this.settleStored(chunk, settle);
    while (pending.length > 0) {
      try {
        await retryingTransaction(() => this.client.send(new TransactWriteCommand({ TransactItems: this.transactItems(pending, shard) })), this.sleep);
        for (const entry of pending) settle(entry, 'written');
        return;
      } catch (error) {
        const raced = error instanceof TransactionCanceledException ? this.storedMeanwhile(pending, error) : [];
        if (raced.length === 0) {
          for (const entry of pending) settle(entry, error as Error);
          return;
        }
        // Another writer stored some of these since they were read (a live feed message during an import).
        const racedIds = new Set(raced.map((entry) => entry.id));
        pending = [...(await this.settleStored(raced, settle)), ...pending.filter((entry) => !racedIds.has(entry.id))];
      }
    }
  }

  private transactItems(chunk: readonly MediaLogEntry[], shard: number) {
    const puts = chunk.map((entry) => ({
      Put: { TableName: this.tableName, Item: entryItem(entry), ConditionExpression: 'attribute_not_exists(pk)' },
    }));
    const counters = chunkCounters(chunk, shard).map(({ key, counts }) => ({ Update: counterAddition(this.tableName, key, counts) }));
    return [...puts, ...counters];
  }

  /** The entries of `chunk` whose put failed its condition: their ids were taken since. */
  private storedMeanwhile(chunk: readonly MediaLogEntry[], error: TransactionCanceledException): MediaLogEntry[] {
    const reasons = error.CancellationReasons ?? [];
    return chunk.filter((_, index) => reasons[index]?.Code === 'ConditionalCheckFailed');
  }

  /** Settle the entries of `chunk` that are stored already (unchanged, or a conflict); return the rest. */
  private async settleStored(chunk: readonly MediaLogEntry[], settle: (entry: MediaLogEntry, result: EntryResult) => void): Promise<MediaLogEntry[]> {
    const stored = await this.storedRequests(chunk.map((entry) => entry.id));
    return chunk.filter((entry) => {
      const found = stored.get(entry.id);
      if (found === undefined) return true;
      settle(entry, sameRequest(found, entry) ? 'unchanged' : conflict(entry.id));
      return false;
    });
  }

  /** The stored entries among `ids` (at most 100), read consistently. */
  private async storedRequests(ids: readonly string[]): Promise<Map<string, MediaLogEntry>> {
    const found = new Map<string, MediaLogEntry>();
    let keys: Record<string, unknown>[] = ids.map((id) => mediaLogKeys.entry(id));
    for (let attempt = 0; keys.length > 0; attempt += 1) {
      if (attempt > 0) await (this.sleep ?? realSleep)(Math.min(1000, 20 * 2 ** attempt));
      const output = await this.client.send(
        new BatchGetCommand({
          RequestItems: {
            [this.tableName]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'pk, id, send, #url, userId', ExpressionAttributeNames: { '#url': 'url' } },
          },
        }),
      );
      for (const item of output.Responses?.[this.tableName] ?? []) found.set(String(item.id), entryFromItem(item));
      keys = output.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
    }
    return found;
  }
}
