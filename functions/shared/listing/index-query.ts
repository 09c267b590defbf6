import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { readsOf } from '../observability/read-meter';
import { lastKeyBefore, type KeyRange } from './key-range';
import { BYTES_PER_READ_UNIT, HALF_UNIT, queryUnits, type ReadBudget } from './read-budget';

/**
 * The one Query of the listings: a range of one partition, a chunk at a time, paid from the
 * request's read budget. Pages (merge-reader.ts), counts and counter reads all read through it, so
 * the key condition is built and the read units are accounted in this one place.
 */

/** Most items one Query is asked for: beyond, a response is cut at 1 MB anyway. */
export const MAX_ITEMS_PER_QUERY = 1000;

/** A stored item, as the document client returns it. */
export type ListedItem = Record<string, unknown>;

/** A DynamoDB filter expression with its placeholders, checked on each item read. */
export interface ItemFilter {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, unknown>>;
}

/** One partition of a table (no index name) or of one of its indexes, read in the order of its sort key. */
export interface IndexPartition {
  readonly indexName?: string;
  readonly attribute: string;
  readonly value: string;
  readonly sortAttribute: string;
}

/**
 * What becomes of items a read found, when the index alone cannot say whether they belong (a
 * listing that must read each entry by key): a value per item, or null for an item left out.
 */
export interface Resolver<T> {
  /** Most read units resolving one item can cost. */
  readonly unitsPerItem: number;
  values(items: readonly ListedItem[], budget: ReadBudget): Promise<(T | null)[]>;
}

/** One chunk to read. */
export interface ChunkRequest {
  readonly partition: IndexPartition;
  readonly range: KeyRange;
  readonly ascending: boolean;
  readonly limit: number;
  /** Where the previous chunk stopped (its `next`). */
  readonly start?: ListedItem;
  readonly filter?: ItemFilter;
  /** Only how many pass (`Select: COUNT`): the items are not returned. */
  readonly countOnly?: boolean;
}

/** A chunk read. */
export interface Chunk {
  /** The items that passed the filter (none returned for a count). */
  readonly items: ListedItem[];
  /** How many items passed the filter. */
  readonly count: number;
  /** Items read, filtered out or not. */
  readonly scanned: number;
  /** Where the next chunk starts; absent when the range is read through. */
  readonly next?: ListedItem;
  /** Sort key of the last item read, passed or not: how far the partition is known. */
  readonly lastKey?: string;
  /** Read units it cost. */
  readonly units: number;
}

/** What to count: partitions (each with its filter) over one range. */
export interface CountRequest<T> {
  readonly parts: readonly { readonly partition: IndexPartition; readonly filter?: ItemFilter }[];
  readonly range: KeyRange;
  /** When set, an item counts only once resolved (read by key and checked). */
  readonly resolve?: Resolver<T>;
  /** Tallies an item (and its value) adds one to, beside the count. */
  readonly tally?: (item: ListedItem, value: T | undefined) => readonly string[];
}

/** What a count found. */
export interface Counted {
  readonly count: number;
  /** False when the budget ran out first: `count` is then a lower bound. */
  readonly exact: boolean;
  readonly tallies: ReadonlyMap<string, number>;
}

/** The Query of one partition's range: the key condition, the filter. */
export function partitionQuery(tableName: string, partition: IndexPartition, range: KeyRange, filter?: ItemFilter): QueryCommandInput {
  const names: Record<string, string> = { '#p': partition.attribute, ...filter?.names };
  const values: Record<string, unknown> = { ':p': partition.value, ...filter?.values };
  let condition = '#p = :p';
  if (range.from !== undefined || range.to !== undefined) names['#k'] = partition.sortAttribute;
  // A key condition takes one comparison of the sort key: `BETWEEN` is inclusive on both sides.
  if (range.from !== undefined && range.to !== undefined) {
    condition += ' AND #k BETWEEN :from AND :last';
    values[':from'] = range.from;
    values[':last'] = lastKeyBefore(range.to);
  } else if (range.from !== undefined) {
    condition += ' AND #k >= :from';
    values[':from'] = range.from;
  } else if (range.to !== undefined) {
    condition += ' AND #k < :to';
    values[':to'] = range.to;
  }
  return {
    TableName: tableName,
    ...(partition.indexName === undefined ? {} : { IndexName: partition.indexName }),
    KeyConditionExpression: condition,
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The Queries of the listings on one table (or its indexes), whose items weigh at most `itemBytes`. */
export class IndexQuery {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The largest item a read can meet: what a chunk is budgeted at before it is read. */
    private readonly itemBytes: number,
  ) {}

  /** Most items a chunk may read for `units` read units, each resolved for `perItem` more (at least one when `units` pays a Query). */
  public itemsWithin(units: number, perItem = 0): number {
    if (units < HALF_UNIT) return 0;
    // A Query of n items costs at most half a unit more than their bytes at 8 KB a unit.
    return Math.max(1, Math.floor((units - HALF_UNIT) / (this.itemBytes / BYTES_PER_READ_UNIT + perItem)));
  }

  /** Read one chunk, from the budget. */
  public async chunk(request: ChunkRequest, budget: ReadBudget): Promise<Chunk> {
    const input = {
      ...partitionQuery(this.tableName, request.partition, request.range, request.filter),
      ScanIndexForward: request.ascending,
      Limit: request.limit,
      ...(request.start === undefined ? {} : { ExclusiveStartKey: request.start }),
      ...(request.countOnly === true ? { Select: 'COUNT' as const } : {}),
      ReturnConsumedCapacity: 'TOTAL' as const,
    };
    const settle = budget.reserve(queryUnits(request.limit * this.itemBytes));
    const output = await this.client.send(new QueryCommand(input));
    const units = readsOf('QueryCommand', input, output as Record<string, unknown>).billedReadUnits;
    settle(units);
    const items = output.Items ?? [];
    // LastEvaluatedKey carries the sort key too: how far the partition has been read, matches or not.
    const last = output.LastEvaluatedKey?.[request.partition.sortAttribute] ?? items.at(-1)?.[request.partition.sortAttribute];
    return {
      items,
      count: output.Count ?? items.length,
      scanned: output.ScannedCount ?? 0,
      ...(output.LastEvaluatedKey === undefined ? {} : { next: output.LastEvaluatedKey }),
      ...(typeof last === 'string' ? { lastKey: last } : {}),
      units,
    };
  }

  /** Every item of a partition's range, lowest key first (counter items: `expected` of them at most, as far as the caller knows). */
  public async all(partition: IndexPartition, range: KeyRange, budget: ReadBudget, expected = MAX_ITEMS_PER_QUERY): Promise<ListedItem[]> {
    const items: ListedItem[] = [];
    let start: ListedItem | undefined;
    do {
      const limit = Math.max(1, Math.min(MAX_ITEMS_PER_QUERY, expected - items.length));
      const chunk = await this.chunk({ partition, range, ascending: true, limit, ...(start ? { start } : {}) }, budget);
      items.push(...chunk.items);
      start = chunk.next;
    } while (start !== undefined);
    return items;
  }

  /**
   * The one count by reading: how many items of the parts' range pass their filters (and, with a
   * resolver, their check), one part after another within the budget. Listings keep counters for
   * their totals and count by reading only where no counter can say it (the edge of a time range
   * inside a counter bucket, a url, a name prefix); the budget bounds even those.
   */
  public async count<T>(request: CountRequest<T>, budget: ReadBudget): Promise<Counted> {
    let count = 0;
    const tallies = new Map<string, number>();
    const perItem = request.resolve?.unitsPerItem ?? 0;
    const countOnly = request.resolve === undefined && request.tally === undefined;
    for (const { partition, filter } of request.parts) {
      let start: ListedItem | undefined;
      do {
        const limit = Math.min(MAX_ITEMS_PER_QUERY, this.itemsWithin(budget.left, perItem));
        if (limit === 0) return { count, exact: false, tallies };
        const chunk = await this.chunk({ partition, range: request.range, ascending: true, limit, countOnly, ...(filter ? { filter } : {}), ...(start ? { start } : {}) }, budget);
        if (countOnly) count += chunk.count;
        const values = request.resolve === undefined ? undefined : await request.resolve.values(chunk.items, budget);
        chunk.items.forEach((item, index) => {
          const value = values?.[index];
          if (value === null) return;
          count += 1;
          for (const key of request.tally?.(item, value) ?? []) tallies.set(key, (tallies.get(key) ?? 0) + 1);
        });
        start = chunk.next;
      } while (start !== undefined);
    }
    return { count, exact: true, tallies };
  }
}
