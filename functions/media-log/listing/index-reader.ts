import { GetCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { KeyWindow } from '../../shared/listing/key-window';
import { partitionQuery, type IndexPartition } from '../../shared/listing/merge-reader';
import { comboAttribute, TOTAL_ATTRIBUTE } from '../model/counters';
import { entryFromItem } from '../model/entry-item';
import { mediaLogKeys, SEND_KEY_ATTRIBUTE, type CounterScope } from '../model/keys';
import { bucketOf, type TimeLevel } from '../model/time-buckets';

/** Counter reads in flight at once for one listing (one per counted scope: a family of hundreds has hundreds). */
export const COUNTER_READS_IN_FLIGHT = 16;

/** The counts of one time bucket: `n` and one attribute per status combination. */
export interface CounterBucket {
  readonly bucket: string;
  readonly counts: Readonly<Record<string, number>>;
  /** False when the counts are only a lower bound (hidden entries subtracted by a coarser counter). */
  readonly exact?: boolean;
}

/** The counts of hidden entries per bucket, read entry by entry within a budget. */
export interface BucketEntryCounts {
  readonly counts: ReadonlyMap<string, Readonly<Record<string, number>>>;
  /** False when the budget ran out before the window was read through. */
  readonly exact: boolean;
  /** Items read. */
  readonly scanned: number;
}

/**
 * The reads of the media log besides the pages (which the listing engine reads): one entry by id,
 * counter buckets (from the counts table), and the status combinations of a few entries no
 * counter covers.
 */
export class CounterReader {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly countsTableName: string,
  ) {}

  /** The stored item of entry `id`, or null. */
  public async entry(id: string): Promise<Record<string, unknown> | null> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: mediaLogKeys.entry(id) }));
    return Item ?? null;
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
    const items = await this.queryAll({ TableName: this.countsTableName, KeyConditionExpression: condition, ExpressionAttributeValues: values });
    // Only the counts: the fold's watermarks (`w_<shard>`) are text.
    return items.map((item) => ({
      bucket: String(item.sk),
      counts: Object.fromEntries(Object.entries(item).filter((pair): pair is [string, number] => typeof pair[1] === 'number')),
    }));
  }

  /**
   * The counts (total and status combinations) of the entries of `partitions` in `window`, per
   * bucket of `level`, read entry by entry and at most `readBudget` of them: for the entries of
   * hidden users inside buckets finer than their counters.
   */
  public async entryCountsByBucket(partitions: readonly IndexPartition[], window: KeyWindow, level: TimeLevel, readBudget: number): Promise<BucketEntryCounts> {
    const counts = new Map<string, Record<string, number>>();
    let scanned = 0;
    for (const partition of partitions) {
      let start: Record<string, unknown> | undefined;
      do {
        if (scanned >= readBudget) return { counts, exact: false, scanned };
        const output = await this.client.send(new QueryCommand({ ...partitionQuery(this.tableName, SEND_KEY_ATTRIBUTE, partition, window), Limit: readBudget - scanned, ExclusiveStartKey: start }));
        scanned += output.ScannedCount ?? 0;
        for (const item of output.Items ?? []) {
          const entry = entryFromItem(item);
          const key = bucketOf(level, entry.send);
          const bucket = counts.get(key) ?? {};
          const combo = comboAttribute(entry);
          bucket[combo] = (bucket[combo] ?? 0) + 1;
          bucket[TOTAL_ATTRIBUTE] = (bucket[TOTAL_ATTRIBUTE] ?? 0) + 1;
          counts.set(key, bucket);
        }
        start = output.LastEvaluatedKey;
      } while (start);
    }
    return { counts, exact: true, scanned };
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
