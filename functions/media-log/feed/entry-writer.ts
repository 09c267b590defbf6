import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { entryFromItem, entryItem, type StatusStamps } from '../model/entry-item';
import { EntryConflictError } from '../model/errors';
import { mediaLogKeys } from '../model/keys';
import { REQUEST_FIELDS } from '../model/entry-fields';
import { Retention } from '../model/retention';
import type { MediaLogEntry } from '../model/schemas';
import { exponentialDelay, realSleep, retryUnprocessed, type Backoff, type Sleep } from '../../shared/async/retry';
import { chunksOf } from '../../shared/chunks';

/** What writing an entry did: stored it, or found the same request already stored (a retry). */
export type WriteOutcome = 'written' | 'unchanged';

/** The result of one entry of a batch: its outcome, or why it was not written. */
export type EntryResult = WriteOutcome | Error;

/** Options of {@link MediaLogWriter.writeAll}. */
export interface WriteAllOptions {
  /** Called as entries settle, with how many just did (for progress bars). */
  readonly onSettled?: (count: number) => void;
  /** When each status of an entry was set, by entry id, where it is not its send time (entries copied from another table). */
  readonly stamps?: ReadonlyMap<string, StatusStamps>;
  /** The top user of each user of the entries, where the caller read them already for the whole batch. */
  readonly families?: TopUsers;
}

/** The top user (family) of each user id: a sub user's parent, any other user itself. */
export type TopUsers = ReadonlyMap<number, number>;

/** Where the writer learns the family of an entry's user: the users table (functions/shared/tables/user-scope-reader.ts). */
export type FamilyDirectory = Pick<UserScopeReader, 'topUsersOf'>;

/** Most keys of one BatchGetItem (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html). */
const CHECK_BATCH = 100;
/** Most requests of one BatchWriteItem (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html). */
const WRITE_BATCH = 25;
/** Batch requests in flight at once: DynamoDB Local serializes writes, AWS spreads them over partitions. */
const BATCHES_IN_FLIGHT = 8;
/** Rounds of a batch's unprocessed items before the batch counts as failed (throttling that does not let up). */
const MAX_BATCH_ROUNDS = 10;
/** Wait after round n: 20 × 2^n ms, at most a second. */
const BATCH_DELAY = exponentialDelay(20, 1000);

/** Whether two entries are the same request: statuses may have moved on since, the rest never does. */
function sameRequest(a: MediaLogEntry, b: MediaLogEntry): boolean {
  return REQUEST_FIELDS.every((field) => a[field] === b[field]);
}

/** The family of `entry` in `families`; a user missing there is its own (as the users table answers for an unknown user). */
function topUserOf(families: TopUsers, entry: MediaLogEntry): number {
  return families.get(entry['user-id']) ?? entry['user-id'];
}

function conflict(id: string): EntryConflictError {
  return new EntryConflictError(id);
}


/**
 * The one writer of new media log entries (DESIGN.md section 7b): one item per entry, no counter
 * (the fold counts entries from the table's stream). The feed stores a request with one conditional
 * put; an import stores many in batches. Storing the same request again changes nothing. Each
 * entry is keyed to its family, the top user of its user at write time (DESIGN.md 7b, round five),
 * read from the users table once per batch (one BatchGetItem per hundred distinct users), never
 * kept across batches: a sub user moved to another parent has its next entries keyed to the new
 * family.
 */
export class MediaLogWriter {
  private readonly backoff: Backoff;

  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly families: FamilyDirectory,
    sleep: Sleep = realSleep,
    /** How long entries are kept: each is stored with its expiry, which DynamoDB's TTL acts on. */
    private readonly retention: Retention = Retention.forever,
  ) {
    this.backoff = { attempts: MAX_BATCH_ROUNDS, delayMs: BATCH_DELAY, sleep };
  }

  /** The stored item of `entry` in `family`, with its expiry when the log keeps entries for a time. */
  private itemOf(entry: MediaLogEntry, family: number, stamps?: StatusStamps): Record<string, string | number> {
    const expiresAt = this.retention.expiresAt(entry.send);
    return { ...entryItem(entry, stamps, family), ...(expiresAt === undefined ? {} : { [MEDIA_LOG_ATTRIBUTES.expiresAt]: expiresAt }) };
  }

  /**
   * Store one validated entry with one conditional put. The same request already stored is left
   * alone (`unchanged`, its statuses may have moved on since); the same id with another send time,
   * url or user is a 409.
   */
  public async write(entry: MediaLogEntry, families?: TopUsers): Promise<WriteOutcome> {
    const family = await this.familyOf(entry, families);
    try {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: this.itemOf(entry, family), ConditionExpression: 'attribute_not_exists(pk)' }));
      return 'written';
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // The id is taken: a redelivered request, or another request under the same id.
      const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: mediaLogKeys.entry(entry.id), ConsistentRead: true }));
      if (Item !== undefined && sameRequest(entryFromItem(Item), entry)) return 'unchanged';
      throw conflict(entry.id);
    }
  }

  /**
   * Store validated entries in batches (an import); the results are in the order of `entries`. The
   * ids are checked first, a hundred per BatchGetItem: an entry is `unchanged` when the same request
   * is stored already (or comes earlier in `entries`), an {@link EntryConflictError} when its id holds a
   * different one; the others are stored 25 per BatchWriteItem, or get the error of their batch.
   *
   * BatchWriteItem has no condition: a feed message that stores the same request between the check
   * and the write is overwritten by the same request with the import's statuses. The stream carries
   * that change like any other, so the counters stay exact; a status it replaced arrives again only
   * if the pipeline sends it again.
   */
  public async writeAll(entries: readonly MediaLogEntry[], options: WriteAllOptions = {}): Promise<EntryResult[]> {
    const results = new Array<EntryResult>(entries.length);
    const firstIndex = new Map<string, number>();
    const unique: MediaLogEntry[] = [];
    entries.forEach((entry, index) => {
      const first = firstIndex.get(entry.id);
      if (first === undefined) {
        firstIndex.set(entry.id, index);
        unique.push(entry);
      } else results[index] = sameRequest(entries[first] as MediaLogEntry, entry) ? 'unchanged' : conflict(entry.id);
    });
    if (entries.length > unique.length) options.onSettled?.(entries.length - unique.length);
    const settle = (entry: MediaLogEntry, result: EntryResult) => {
      results[firstIndex.get(entry.id) as number] = result;
    };
    await mapConcurrently(chunksOf(unique, CHECK_BATCH), BATCHES_IN_FLIGHT, async (chunk) => {
      const fresh = await this.settleStored(chunk, settle);
      options.onSettled?.(chunk.length - fresh.length);
      const families = options.families ?? (await this.families.topUsersOf(fresh.map((entry) => entry['user-id'])));
      for (const batch of chunksOf(fresh, WRITE_BATCH)) {
        const outcome = await this.putAll(batch, { families, ...(options.stamps ? { stamps: options.stamps } : {}) }).then(() => 'written' as const, (error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        for (const entry of batch) settle(entry, outcome);
        options.onSettled?.(batch.length);
      }
    });
    return results;
  }

  /**
   * Store entries with BatchWriteItem, 25 per request and a few requests at once, without checking
   * their ids (a put replaces a stored item): the second half of {@link writeAll}, and the floor of
   * the import benchmark. Items DynamoDB leaves unprocessed are sent again with backoff.
   */
  public async putAll(entries: readonly MediaLogEntry[], options: WriteAllOptions = {}): Promise<void> {
    const families = options.families ?? (await this.families.topUsersOf(entries.map((entry) => entry['user-id'])));
    await mapConcurrently(chunksOf(entries, WRITE_BATCH), BATCHES_IN_FLIGHT, async (batch) => {
      const requests = batch.map((entry) => ({ PutRequest: { Item: this.itemOf(entry, topUserOf(families, entry), options.stamps?.get(entry.id)) } }));
      await retryUnprocessed(
        requests,
        async (pending) => {
          const output = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending as never } }));
          return (output.UnprocessedItems?.[this.tableName] ?? []) as typeof requests;
        },
        this.backoff,
      );
      options.onSettled?.(batch.length);
    });
  }

  /** The family of each user of `entries`, read once for a batch of them. */
  public familiesOf(entries: readonly MediaLogEntry[]): Promise<Map<number, number>> {
    return this.families.topUsersOf(entries.map((entry) => entry['user-id']));
  }

  /** The family of one entry: from `families` when the batch read them, else read now. */
  private async familyOf(entry: MediaLogEntry, families: TopUsers | undefined): Promise<number> {
    return topUserOf(families ?? (await this.families.topUsersOf([entry['user-id']])), entry);
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
    const keys: Record<string, unknown>[] = ids.map((id) => mediaLogKeys.entry(id));
    await retryUnprocessed(keys, async (pending) => {
      const output = await this.client.send(
        new BatchGetCommand({
          RequestItems: {
            // What makes a request the same: its key, send key, url and user (statuses may have moved on).
            [this.tableName]: { Keys: [...pending], ConsistentRead: true, ProjectionExpression: 'pk, #send, #url, #user', ExpressionAttributeNames: { '#send': MEDIA_LOG_ATTRIBUTES.sendKey, '#url': 'url', '#user': MEDIA_LOG_ATTRIBUTES.userId } },
          },
        }),
      );
      for (const item of output.Responses?.[this.tableName] ?? []) {
        const entry = entryFromItem(item);
        found.set(entry.id, entry);
      }
      return output.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
    }, this.backoff);
    return found;
  }
}
