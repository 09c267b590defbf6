import { BatchGetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { exponentialDelay, retryUnprocessed, UnprocessedItemsError, type Backoff } from '../../shared/async/retry';
import { chunksOf } from '../../shared/chunks';
import { ServiceUnavailableError } from '../../shared/errors';
import { IndexQuery, type Counted, type IndexPartition, type ItemFilter, type ListedItem, type Resolver } from '../../shared/listing/index-query';
import type { KeyRange } from '../../shared/listing/key-range';
import { readMergedPage, type MergedPage, type MergeRequest } from '../../shared/listing/merge-reader';
import type { ReadBudget } from '../../shared/listing/read-budget';
import { readsOf } from '../../shared/observability/read-meter';
import { mediaLogCountsTable } from '../../shared/tables/media-log-table';
import { countsOfItem, type CounterBucket } from '../model/counters';
import { entryFromItem } from '../model/entry-item';
import { mediaLogKeys, type CounterScope } from '../model/keys';
import type { MediaLogEntry } from '../model/schemas';
import type { TimeLevel } from '../model/time-buckets';
import type { EntryCheck } from './entry-filter';
import { COUNTER_ITEM_BYTES, ENTRY_READ_UNITS, INDEX_ITEM_BYTES } from './read-costs';

/** Most keys of one BatchGetItem (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html). */
const BATCH_GET_KEYS = 100;
/** Rounds of a BatchGetItem's unprocessed keys before the read gives up (throttling that does not let up). */
const BATCH_GET_BACKOFF: Backoff = { attempts: 8, delayMs: exponentialDelay(20, 1000) };

/** Counter reads in flight at once for one listing (one per counted scope: a family of hundreds has hundreds). */
export const COUNTER_READS_IN_FLIGHT = 16;

/** Most counter buckets one counter partition holds for a level (a day's hours, a month's days; months: years of them). */
const BUCKETS_PER_PARTITION: Readonly<Record<TimeLevel, number>> = { month: 1000, day: 31, hour: 24 };

/** What a count reads besides the index items. */
export interface CountOptions {
  /** Count an item only if its entry passes (the entries are read to know). */
  readonly check?: EntryCheck;
  /** Read each item's entry even without a check (to tally its statuses). */
  readonly readEntries?: boolean;
  /** Tallies an item (and its entry, when read) adds one to. */
  readonly tally?: (item: ListedItem, entry: MediaLogEntry | undefined) => readonly string[];
}

/**
 * The one reader of the media log's tables for a listing: it alone holds the client and the table
 * names, and every read it makes is paid from the request's budget. Pages are merged from the
 * listing indexes (keys only), then their entries are read by key, a BatchGetItem per run of
 * candidates (eventually consistent, unprocessed keys retried); counts read the same indexes
 * through the same Query; the counters come from their own table. What to read is the plan's
 * (list-plan.ts): this file never decides.
 */
export class MediaLogIndexReader {
  private readonly indexes: IndexQuery;
  private readonly counts: IndexQuery;

  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: { readonly entries: string; readonly counts: string },
  ) {
    this.indexes = new IndexQuery(client, tables.entries, INDEX_ITEM_BYTES);
    this.counts = new IndexQuery(client, tables.counts, COUNTER_ITEM_BYTES);
  }

  /** The entry `id` when it is stored and passes `check`, else null: read as a page reads its entries. */
  public async entry(id: string, check: EntryCheck, budget: ReadBudget): Promise<MediaLogEntry | null> {
    const [entry] = await this.resolver(check).values([mediaLogKeys.entry(id)], budget);
    return entry ?? null;
  }

  /** The counter buckets of `level` in the parent bucket whose names lie in `names`, oldest first. */
  public async counterBuckets(scope: CounterScope, level: TimeLevel, parent: string | null, names: KeyRange, budget: ReadBudget): Promise<CounterBucket[]> {
    const { partitionKey, sortKey } = mediaLogCountsTable;
    const partition: IndexPartition = { attribute: partitionKey.name, value: mediaLogKeys.counterPartition(scope, level, parent), sortAttribute: (sortKey as { name: string }).name };
    const items = await this.counts.all(partition, names, budget, BUCKETS_PER_PARTITION[level]);
    return items.map((item) => ({ bucket: String(item[partition.sortAttribute]), counts: countsOfItem(item) }));
  }

  /**
   * A page of entries: the merge of the streams' index items, each candidate's entry read by key
   * and checked (those passed over before the page too when `resolveSkipped`: a status check).
   */
  public page(request: Omit<MergeRequest<MediaLogEntry>, 'budget' | 'resolve'> & { readonly check?: EntryCheck }, budget: ReadBudget): Promise<MergedPage<MediaLogEntry>> {
    const { check, ...merge } = request;
    return readMergedPage(this.indexes, { ...merge, budget, resolve: this.resolver(check) });
  }

  /** How many items of the parts' range pass their filters (and the check, their entries read to know), within the budget. */
  public count(parts: readonly { readonly partition: IndexPartition; readonly filter?: ItemFilter }[], range: KeyRange, budget: ReadBudget, options: CountOptions = {}): Promise<Counted> {
    const resolve = options.check !== undefined || options.readEntries === true ? this.resolver(options.check) : undefined;
    return this.indexes.count({ parts, range, ...(resolve ? { resolve } : {}), ...(options.tally ? { tally: options.tally } : {}) }, budget);
  }

  /** Index items resolved to their entries: the entry when it is stored and passes `check`, else null. */
  private resolver(check: EntryCheck | undefined): Resolver<MediaLogEntry> {
    return {
      unitsPerItem: ENTRY_READ_UNITS,
      values: async (items, budget) => {
        const entries = await this.entries(items.map((item) => String(item.pk)), budget);
        return items.map((item) => {
          const entry = entries.get(String(item.pk));
          return entry !== undefined && (check === undefined || check(entry)) ? entry : null;
        });
      },
    };
  }

  /** The stored entries of `keys` (a hundred per BatchGetItem), by key; a key with no entry is absent. */
  private async entries(keys: readonly string[], budget: ReadBudget): Promise<Map<string, MediaLogEntry>> {
    const found = new Map<string, MediaLogEntry>();
    await Promise.all(chunksOf([...new Set(keys)], BATCH_GET_KEYS).map((chunk) => this.batchGet(chunk, found, budget)));
    return found;
  }

  /**
   * One BatchGetItem of up to a hundred keys, its unprocessed keys sent again with backoff. Keys
   * still unprocessed after that are throttling that does not let up: a 503 with `Retry-After`
   * (DESIGN.md 5), not an internal error.
   */
  private async batchGet(keys: readonly string[], found: Map<string, MediaLogEntry>, budget: ReadBudget): Promise<void> {
    const table = this.tables.entries;
    const settle = budget.reserve(keys.length * ENTRY_READ_UNITS);
    let units = 0;
    try {
      await retryUnprocessed(
        keys.map((pk) => ({ pk })),
        async (pending) => {
          const input = { RequestItems: { [table]: { Keys: [...pending] } }, ReturnConsumedCapacity: 'TOTAL' as const };
          const output = await this.client.send(new BatchGetCommand(input));
          units += readsOf('BatchGetItemCommand', input, output as Record<string, unknown>).billedReadUnits;
          for (const item of output.Responses?.[table] ?? []) found.set(String(item.pk), entryFromItem(item));
          return (output.UnprocessedKeys?.[table]?.Keys ?? []) as { pk: string }[];
        },
        BATCH_GET_BACKOFF,
      );
    } catch (error) {
      if (error instanceof UnprocessedItemsError) throw new ServiceUnavailableError('DynamoDB kept throttling the entries of this page; try again shortly.', error);
      throw error;
    } finally {
      settle(units);
    }
  }
}
