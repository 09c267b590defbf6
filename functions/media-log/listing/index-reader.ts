import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { exponentialDelay, retryUnprocessed, type Backoff } from '../../shared/async/retry';
import type { WindowCount } from '../../shared/listing/count-window';
import { compareKeys, type KeyWindow } from '../../shared/listing/key-window';
import { PAGE_READ_BUDGET } from '../../shared/listing/pagination';
import { partitionQuery, type IndexPartition, type ItemFilter, type ListedItem } from '../../shared/listing/index-partition';
import { readMergedPage, type SortedStream } from '../../shared/listing/merge-reader';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { comboAttribute, TOTAL_ATTRIBUTE } from '../model/counters';
import { entryFromItem } from '../model/entry-item';
import { isCountAttribute } from '../fold/count-fold';
import { mediaLogKeys, type CounterScope } from '../model/keys';
import type { MediaLogEntry } from '../model/schemas';
import { bucketOf, type TimeLevel } from '../model/time-buckets';
import { chunksOf } from '../../shared/chunks';
import type { BucketEntryCounts, CounterBucket, CountRead, EntryCheck, EntryPage, PageRead } from './index-reads';

/** Most keys of one BatchGetItem (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html). */
const BATCH_GET_KEYS = 100;
/** Rounds of a BatchGetItem's unprocessed keys before the read fails (throttling that does not let up). */
const BATCH_GET_BACKOFF: Backoff = { attempts: 8, delayMs: exponentialDelay(20, 1000) };

/**
 * The one reader of the media log's tables for a listing: it alone holds the client and the table
 * names. Pages are merged from the listing indexes (keys only), then their entries are read by key,
 * one BatchGetItem per page (eventually consistent, unprocessed keys retried); the counters come
 * from their own table. The planning code (list-plan.ts, scope-counting.ts) says what to read and
 * never sees a client or a table.
 */
export class MediaLogIndexReader {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: { readonly entries: string; readonly counts: string },
  ) {}

  /** The stored entry `id`, or null. */
  public async entry(id: string): Promise<MediaLogEntry | null> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tables.entries, Key: mediaLogKeys.entry(id) }));
    return Item === undefined ? null : entryFromItem(Item);
  }

  /** The buckets of `level` in the parent bucket, from `first` to `last` (inclusive, either open), oldest first. */
  public async counterBuckets(scope: CounterScope, level: TimeLevel, parent: string | null, range: { first?: string; last?: string }): Promise<CounterBucket[]> {
    const values: Record<string, unknown> = { ':pk': mediaLogKeys.counterPartition(scope, level, parent) };
    let condition = 'pk = :pk';
    if (range.first !== undefined) values[':lo'] = range.first;
    if (range.last !== undefined) values[':hi'] = range.last;
    if (range.first !== undefined && range.last !== undefined) condition += ' AND sk BETWEEN :lo AND :hi';
    else if (range.first !== undefined) condition += ' AND sk >= :lo';
    else if (range.last !== undefined) condition += ' AND sk <= :hi';
    const items = await this.queryAll({ TableName: this.tables.counts, KeyConditionExpression: condition, ExpressionAttributeValues: values });
    // Only the counts: the fold's watermarks (`w_<shard>`) are text, its version is not a count.
    return items.map((item) => ({
      bucket: String(item.sk),
      counts: Object.fromEntries(Object.entries(item).filter((pair): pair is [string, number] => isCountAttribute(pair[0], pair[1]))),
    }));
  }

  /** A page of entries: the merge of the streams' index items, then their entries by key. */
  public async page(read: PageRead): Promise<EntryPage> {
    const fetched = new Map<string, MediaLogEntry | null>();
    const { check } = read;
    const merged = await readMergedPage(this.client, {
      tableName: this.tables.entries,
      sortAttribute: MEDIA_LOG_ATTRIBUTES.sendKey,
      streams: read.streams,
      window: read.window,
      ascending: read.ascending,
      skip: read.skip,
      take: read.take,
      readBudget: PAGE_READ_BUDGET,
      ...(check === undefined
        ? {}
        : {
            check: async (items: readonly ListedItem[]) => {
              await this.fetchInto(fetched, items);
              return items.map((item) => {
                const entry = fetched.get(String(item.pk));
                return entry !== undefined && entry !== null && check(entry);
              });
            },
          }),
    });
    await this.fetchInto(fetched, merged.items);
    const entries = merged.items.map((item) => fetched.get(String(item.pk))).filter((entry): entry is MediaLogEntry => entry !== undefined && entry !== null && (check === undefined || check(entry)));
    return { entries, ...(merged.resumeAfter === undefined ? {} : { resumeAfter: merged.resumeAfter }), more: merged.more, budgetSpent: merged.budgetSpent };
  }

  /**
   * How many entries of the parts' partitions in the window pass their filters (and the check),
   * counted one partition after another within the read budget; items read to count them, entries
   * read to check them included, are spent from it.
   */
  public async count(read: CountRead): Promise<WindowCount> {
    let total: WindowCount = { count: 0, exact: true, scanned: 0 };
    for (const { partition, filter } of read.parts) {
      if (total.scanned >= read.readBudget) return { ...total, exact: false };
      const counted = await this.countPartition(partition, filter, read.window, read.readBudget - total.scanned, read.check);
      total = { count: total.count + counted.count, exact: total.exact && counted.exact, scanned: total.scanned + counted.scanned };
    }
    return total;
  }

  /**
   * The index items of the parts' partitions in the window, in walk order, that pass their filters
   * (and the check, their entries read to know), reading at most `readBudget` items: a url's
   * partition, whose total is counted within the count budget and whose page is usually among them.
   * Several parts of one partition (a large family's filters) hold disjoint items, merged here.
   */
  public async scan(read: CountRead & { readonly ascending: boolean }): Promise<{ readonly items: ListedItem[]; readonly scanned: number; readonly exact: boolean }> {
    const found: ListedItem[] = [];
    let scanned = 0;
    let exact = true;
    for (const { partition, filter } of read.parts) {
      let start: Record<string, unknown> | undefined;
      do {
        if (scanned >= read.readBudget) {
          exact = false;
          break;
        }
        const output = await this.client.send(new QueryCommand({ ...this.query(partition, read.window, filter), ScanIndexForward: read.ascending, Limit: read.readBudget - scanned, ExclusiveStartKey: start }));
        scanned += output.ScannedCount ?? 0;
        const items = output.Items ?? [];
        if (read.check === undefined) found.push(...items);
        else {
          const fetched = new Map<string, MediaLogEntry | null>();
          await this.fetchInto(fetched, items);
          scanned += items.length;
          found.push(...items.filter((item) => {
            const entry = fetched.get(String(item.pk));
            return entry !== undefined && entry !== null && (read.check as EntryCheck)(entry);
          }));
        }
        start = output.LastEvaluatedKey;
      } while (start !== undefined);
      if (start !== undefined) exact = false;
    }
    const key = (item: ListedItem) => String(item[MEDIA_LOG_ATTRIBUTES.sendKey]);
    found.sort((a, b) => (read.ascending ? compareKeys(key(a), key(b)) : compareKeys(key(b), key(a))));
    return { items: found, scanned, exact };
  }

  /** The entries of index items (one BatchGetItem per hundred), in their order, those that pass `check` only. */
  public async entriesOf(items: readonly ListedItem[], check?: EntryCheck): Promise<MediaLogEntry[]> {
    const fetched = new Map<string, MediaLogEntry | null>();
    await this.fetchInto(fetched, items);
    return items.map((item) => fetched.get(String(item.pk))).filter((entry): entry is MediaLogEntry => entry !== undefined && entry !== null && (check === undefined || check(entry)));
  }

  /**
   * The counts (total and, with `withStatuses`, status combinations) of the entries of `partitions`
   * in `window`, per bucket of `level`, read entry by entry and at most `readBudget` items: for the
   * entries of hidden users inside buckets finer than their counters.
   */
  public async entryCountsByBucket(partitions: readonly IndexPartition[], window: KeyWindow, level: TimeLevel, readBudget: number, withStatuses: boolean): Promise<BucketEntryCounts> {
    const counts = new Map<string, Record<string, number>>();
    let scanned = 0;
    for (const partition of partitions) {
      let start: Record<string, unknown> | undefined;
      do {
        if (scanned >= readBudget) return { counts, exact: false, scanned };
        const output = await this.client.send(new QueryCommand({ ...this.query(partition, window), Limit: readBudget - scanned, ExclusiveStartKey: start }));
        scanned += output.ScannedCount ?? 0;
        const items = output.Items ?? [];
        const fetched = new Map<string, MediaLogEntry | null>();
        if (withStatuses) {
          await this.fetchInto(fetched, items);
          scanned += items.length;
        }
        for (const item of items) {
          const bucket = counts.get(bucketOf(level, String(item[MEDIA_LOG_ATTRIBUTES.sendKey]))) ?? {};
          bucket[TOTAL_ATTRIBUTE] = (bucket[TOTAL_ATTRIBUTE] ?? 0) + 1;
          const entry = fetched.get(String(item.pk));
          if (entry) bucket[comboAttribute(entry)] = (bucket[comboAttribute(entry)] ?? 0) + 1;
          counts.set(bucketOf(level, String(item[MEDIA_LOG_ATTRIBUTES.sendKey])), bucket);
        }
        start = output.LastEvaluatedKey;
      } while (start);
    }
    return { counts, exact: true, scanned };
  }

  private query(partition: IndexPartition, window: KeyWindow, filter?: ItemFilter): QueryCommandInput {
    return partitionQuery(this.tables.entries, MEDIA_LOG_ATTRIBUTES.sendKey, partition, window, filter);
  }

  private async countPartition(partition: IndexPartition, filter: ItemFilter | undefined, window: KeyWindow, readBudget: number, check: EntryCheck | undefined): Promise<WindowCount> {
    let count = 0;
    let scanned = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const output = await this.client.send(
        new QueryCommand({ ...this.query(partition, window, filter), ...(check === undefined ? { Select: 'COUNT' } : {}), Limit: readBudget - scanned, ExclusiveStartKey: start }),
      );
      scanned += output.ScannedCount ?? 0;
      if (check === undefined) count += output.Count ?? 0;
      else {
        const items = output.Items ?? [];
        const fetched = new Map<string, MediaLogEntry | null>();
        await this.fetchInto(fetched, items);
        scanned += items.length;
        count += items.filter((item) => {
          const entry = fetched.get(String(item.pk));
          return entry !== undefined && entry !== null && check(entry);
        }).length;
      }
      start = output.LastEvaluatedKey;
    } while (start !== undefined && scanned < readBudget);
    return { count, exact: start === undefined, scanned };
  }

  /** Read the entries of `items` not in `fetched` yet, a hundred keys per BatchGetItem; a key with no entry is kept as null. */
  private async fetchInto(fetched: Map<string, MediaLogEntry | null>, items: readonly ListedItem[]): Promise<void> {
    const missing = [...new Set(items.map((item) => String(item.pk)).filter((pk) => !fetched.has(pk)))];
    for (const pk of missing) fetched.set(pk, null);
    await Promise.all(
      chunksOf(missing, BATCH_GET_KEYS).map((chunk) =>
        retryUnprocessed(
          chunk.map((pk) => ({ pk })),
          async (keys) => {
            const output = await this.client.send(new BatchGetCommand({ RequestItems: { [this.tables.entries]: { Keys: [...keys] } } }));
            for (const item of output.Responses?.[this.tables.entries] ?? []) fetched.set(String(item.pk), entryFromItem(item));
            return (output.UnprocessedKeys?.[this.tables.entries]?.Keys ?? []) as { pk: string }[];
          },
          BATCH_GET_BACKOFF,
        ),
      ),
    );
  }

  private async queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const output = await this.client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      items.push(...(output.Items ?? []));
      start = output.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
