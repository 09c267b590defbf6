import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { counterDeltas, counterKeyId } from '../../functions/media-log/counters';
import { entryItem } from '../../functions/media-log/entry-item';
import type { MediaLogEntry } from '../../functions/media-log/schemas';

/**
 * Loading many validated entries into a log nobody writes to at the same time (benchmarks, a
 * migration into a new table): entries in batches of 25, and each counter of a slice of entries
 * read once and written back once with the sum of the slice's entries added, from the same key
 * functions as the transactional writer. Unlike MediaLogWriter it is neither atomic nor
 * idempotent: loading an entry twice counts it twice.
 */

/** Options of {@link bulkLoadMediaLog}. */
export interface BulkLoadOptions {
  /** Requests in flight at once (default 8). */
  readonly concurrency?: number;
  /** Called with how many entries were stored since the last call. */
  readonly onProgress?: (stored: number) => void;
  /** Entries whose counters are summed in memory at once (default 200k). */
  readonly sliceSize?: number;
}

const BATCH_SIZE = 25;
/**
 * A million entries touch about five million counter items; summing them all at once would hold
 * them all in memory. A slice of 200k keeps that near a gigabyte and writes the counters that
 * slices share (the whole log's, a user's month) once per slice instead of once.
 */
const SLICE_SIZE = 200_000;

const DEFAULT_CONCURRENCY = 8;

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}

async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
}

function pause(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)));
}

/** One BatchWriteItem, retrying what DynamoDB leaves unprocessed. */
async function batchWrite(client: DynamoDBDocumentClient, tableName: string, requests: { PutRequest: { Item: Record<string, unknown> } }[]): Promise<void> {
  for (let attempt = 0; requests.length > 0; attempt += 1) {
    if (attempt > 0) await pause(attempt);
    const output = await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } }));
    requests = (output.UnprocessedItems?.[tableName] ?? []) as typeof requests;
  }
}

/** The stored counter items among `keys`, by `pk\0sk`. */
async function readCounters(client: DynamoDBDocumentClient, tableName: string, keys: { pk: string; sk: string }[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  let pending: Record<string, unknown>[] = keys;
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    if (attempt > 0) await pause(attempt);
    const output = await client.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }));
    for (const item of output.Responses?.[tableName] ?? []) found.set(counterKeyId({ pk: item.pk, sk: item.sk }), item);
    pending = output.UnprocessedKeys?.[tableName]?.Keys ?? [];
  }
  return found;
}

/** Store `entries` and add them to their counters, batched and in parallel. */
export async function bulkLoadMediaLog(
  client: DynamoDBDocumentClient,
  tableName: string,
  entries: readonly MediaLogEntry[],
  options: BulkLoadOptions = {},
): Promise<void> {
  const sliceSize = options.sliceSize ?? SLICE_SIZE;
  for (let start = 0; start < entries.length; start += sliceSize) {
    await loadSlice(client, tableName, entries.slice(start, start + sliceSize), options);
  }
}

/** Store one slice of entries, then add it to its counters. */
async function loadSlice(client: DynamoDBDocumentClient, tableName: string, entries: readonly MediaLogEntry[], options: BulkLoadOptions): Promise<void> {
  await putEntries(client, tableName, entries, options);
  const groups = chunksOf([...counterDeltas(entries).values()], BATCH_SIZE);
  await inParallel(groups, options.concurrency ?? DEFAULT_CONCURRENCY, async (group) => {
    // Nobody else writes meanwhile, so read, add and put back: two requests per 25 counters.
    const existing = await readCounters(client, tableName, group.map(({ key }) => key));
    const items = group.map(({ key, counts }) => {
      const item: Record<string, unknown> = { ...existing.get(counterKeyId(key)), ...key };
      for (const [attribute, value] of counts) item[attribute] = Number(item[attribute] ?? 0) + value;
      return { PutRequest: { Item: item } };
    });
    await batchWrite(client, tableName, items);
  });
}

/**
 * Store entry items only, 25 per BatchWriteItem, without counting them: half of a bulk load, and
 * the import benchmark's floor (what storing the entries alone costs, with no counter written).
 */
export async function putEntries(
  client: DynamoDBDocumentClient,
  tableName: string,
  entries: readonly MediaLogEntry[],
  options: Pick<BulkLoadOptions, 'concurrency' | 'onProgress'> = {},
): Promise<void> {
  await inParallel(chunksOf(entries, BATCH_SIZE), options.concurrency ?? DEFAULT_CONCURRENCY, async (batch) => {
    await batchWrite(client, tableName, batch.map((entry) => ({ PutRequest: { Item: entryItem(entry) } })));
    options.onProgress?.(batch.length);
  });
}
