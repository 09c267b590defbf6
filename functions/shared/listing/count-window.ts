import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyWindow } from './key-window';
import { partitionQuery, type IndexPartition, type ItemFilter } from './index-partition';

/** What a count found: how many items match, and whether that is all of them. */
export interface WindowCount {
  readonly count: number;
  /** False when the budget ran out first: `count` is then a lower bound. */
  readonly exact: boolean;
  /** Items read to count them. */
  readonly scanned: number;
}

/** What to count. */
export interface CountRequest {
  readonly tableName: string;
  readonly sortAttribute: string;
  readonly partition: IndexPartition;
  readonly window: KeyWindow;
  readonly filter?: ItemFilter;
  /** Most items DynamoDB may read for the count. */
  readonly readBudget: number;
}

/**
 * One request's budget of items read to count, shared by every count the request makes: its
 * counts run one after another, each with what the earlier ones left, so that together they never
 * read more than `limit` items however many edges, buckets and partitions a listing counts.
 */
export class CountBudget {
  private spent = 0;
  private queue: Promise<unknown> = Promise.resolve();

  public constructor(public readonly limit: number) {}

  /** Runs `count` with what is left of the budget once the counts started before it are done; what it read is spent. */
  public count<T extends { readonly scanned: number }>(count: (left: number) => Promise<T>): Promise<T> {
    const run = this.queue.then(() => count(Math.max(0, this.limit - this.spent))).then((result) => {
      this.spent += result.scanned;
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Partitions (each with its filter) counted one after another under one shared read budget. */
export async function countWithinBudget(
  client: DynamoDBDocumentClient,
  request: Omit<CountRequest, 'partition' | 'filter'> & { readonly parts: readonly { readonly partition: IndexPartition; readonly filter?: ItemFilter }[] },
): Promise<WindowCount> {
  let total: WindowCount = { count: 0, exact: true, scanned: 0 };
  for (const { partition, filter } of request.parts) {
    if (total.scanned >= request.readBudget) return { ...total, exact: false };
    const counted = await countWindow(client, { tableName: request.tableName, sortAttribute: request.sortAttribute, partition, window: request.window, ...(filter ? { filter } : {}), readBudget: request.readBudget - total.scanned });
    total = { count: total.count + counted.count, exact: total.exact && counted.exact, scanned: total.scanned + counted.scanned };
  }
  return total;
}

/**
 * The one count by reading: how many items of one partition's window pass the filter. Listings
 * keep counters for their totals and count by reading only where no counter can say it (the edge of
 * a time range inside a counter bucket, a name prefix); the budget bounds even those.
 */
export async function countWindow(client: DynamoDBDocumentClient, request: CountRequest): Promise<WindowCount> {
  let count = 0;
  let scanned = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const output = await client.send(
      new QueryCommand({
        ...partitionQuery(request.tableName, request.sortAttribute, request.partition, request.window, request.filter),
        Select: 'COUNT',
        Limit: request.readBudget - scanned,
        ...(start === undefined ? {} : { ExclusiveStartKey: start }),
      }),
    );
    count += output.Count ?? 0;
    scanned += output.ScannedCount ?? 0;
    start = output.LastEvaluatedKey;
  } while (start !== undefined && scanned < request.readBudget);
  return { count, exact: start === undefined, scanned };
}
