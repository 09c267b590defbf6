import { GetCommand, QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, type MediaLogPartitionKind } from '../shared/tables/media-log-table';
import { bucketOfCounterKey, counterPartition, counterSortKeyBounds, type CounterScope } from './counter-keys';
import { mediaLogKeys, type TimeLevel } from './media-log-keys';

/** What a listing read, for the benchmarks and the request log: its cost in items. */
export interface ReadStats {
  /** Entries DynamoDB read for the page (ScannedCount: filtered-out ones included). */
  entriesRead: number;
  /** Entries read to count a partial time bucket or a url's entries for the total. */
  entriesCounted: number;
  /** Counter items read. */
  counterItemsRead: number;
  /** Requests sent to DynamoDB. */
  requests: number;
}

/** Fresh, zeroed read statistics. */
export function newReadStats(): ReadStats {
  return { entriesRead: 0, entriesCounted: 0, counterItemsRead: 0, requests: 0 };
}

/** A filter expression with its placeholders. */
export interface EntryFilter {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, unknown>;
}

/** A window of one listing-index partition: inclusive send-key bounds (either may be open). */
export interface PartitionWindow {
  readonly kind: MediaLogPartitionKind;
  readonly partition: string;
  readonly lo?: string;
  readonly hi?: string;
  readonly filter?: EntryFilter;
}

/** The counts of one time bucket, shards summed: `n` and one attribute per status combination. */
export interface CounterBucket {
  readonly bucket: string;
  readonly counts: Readonly<Record<string, number>>;
}

/** ` AND <key> BETWEEN/>=/<= …` for inclusive bounds (either open), its values added to `values`. */
function rangeCondition(key: string, lo: string | undefined, hi: string | undefined, values: Record<string, unknown>): string {
  if (lo !== undefined) values[':lo'] = lo;
  if (hi !== undefined) values[':hi'] = hi;
  if (lo !== undefined && hi !== undefined) return ` AND ${key} BETWEEN :lo AND :hi`;
  if (lo !== undefined) return ` AND ${key} >= :lo`;
  return hi !== undefined ? ` AND ${key} <= :hi` : '';
}

/**
 * Reads of the media log table: one entry by id, counter buckets, pages and counts of index windows.
 * Every method adds what it read to the `stats` it is given.
 */
export class MediaLogReader {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** The stored item of entry `id`, or null. */
  public async entry(id: string, stats: ReadStats): Promise<Record<string, unknown> | null> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: mediaLogKeys.entry(id) }));
    stats.requests += 1;
    stats.entriesRead += Item ? 1 : 0;
    return Item ?? null;
  }

  /** The buckets of `level` in the parent bucket, from `first` to `last` (inclusive, either open), oldest first. */
  public async counterBuckets(
    scope: CounterScope,
    level: TimeLevel,
    parent: string | null,
    range: { first?: string; last?: string },
    stats: ReadStats,
  ): Promise<CounterBucket[]> {
    const values: Record<string, unknown> = { ':pk': counterPartition(scope, level, parent) };
    const bounds = counterSortKeyBounds(range.first, range.last);
    const condition = `pk = :pk${rangeCondition('sk', bounds.lo, bounds.hi, values)}`;
    const items = await this.queryAll({ TableName: this.tableName, KeyConditionExpression: condition, ExpressionAttributeValues: values }, stats);
    stats.counterItemsRead += items.length;
    const buckets = new Map<string, Record<string, number>>();
    for (const item of items) {
      const bucket = bucketOfCounterKey(String(item.sk));
      const counts = buckets.get(bucket) ?? {};
      for (const [attribute, value] of Object.entries(item)) {
        if (typeof value === 'number') counts[attribute] = (counts[attribute] ?? 0) + value;
      }
      buckets.set(bucket, counts);
    }
    return [...buckets.entries()].map(([bucket, counts]) => ({ bucket, counts }));
  }

  /** Up to `limit` items of a window in send order, from `start` (a LastEvaluatedKey) on. */
  public async page(
    window: PartitionWindow,
    options: { ascending: boolean; limit: number; start?: Record<string, unknown> },
    stats: ReadStats,
  ): Promise<{ items: Record<string, unknown>[]; next?: Record<string, unknown> }> {
    const output = await this.client.send(
      new QueryCommand({ ...this.windowQuery(window), ScanIndexForward: options.ascending, Limit: options.limit, ExclusiveStartKey: options.start }),
    );
    stats.requests += 1;
    stats.entriesRead += output.ScannedCount ?? 0;
    return { items: output.Items ?? [], next: output.LastEvaluatedKey };
  }

  /** How many items of a window pass its filter (reads every item of the window). */
  public async count(window: PartitionWindow, stats: ReadStats): Promise<number> {
    let total = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const output = await this.client.send(new QueryCommand({ ...this.windowQuery(window), Select: 'COUNT', ExclusiveStartKey: start }));
      stats.requests += 1;
      stats.entriesCounted += output.ScannedCount ?? 0;
      total += output.Count ?? 0;
      start = output.LastEvaluatedKey;
    } while (start);
    return total;
  }

  private windowQuery(window: PartitionWindow): QueryCommandInput {
    const names: Record<string, string> = { '#p': MEDIA_LOG_ATTRIBUTES.partition[window.kind], ...window.filter?.names };
    const values: Record<string, unknown> = { ':p': window.partition, ...window.filter?.values };
    if (window.lo !== undefined || window.hi !== undefined) names['#k'] = MEDIA_LOG_ATTRIBUTES.sendKey;
    const condition = `#p = :p${rangeCondition('#k', window.lo, window.hi, values)}`;
    return {
      TableName: this.tableName,
      IndexName: mediaLogIndexName(window.kind),
      KeyConditionExpression: condition,
      ...(window.filter ? { FilterExpression: window.filter.expression } : {}),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
  }

  private async queryAll(input: QueryCommandInput, stats: ReadStats): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const output = await this.client.send(new QueryCommand({ ...input, ExclusiveStartKey: start }));
      stats.requests += 1;
      items.push(...(output.Items ?? []));
      start = output.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
