import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../aws/clients';

/**
 * What DynamoDB read for a piece of work, as DynamoDB reports it: the one meter of the service's
 * reads. The listings' "items read per item returned" metric, the read-cost tests and the
 * benchmarks all count through it. A middleware on a client adds each answer to the tally of the
 * work that sent the request (found through an AsyncLocalStorage, so requests served at once in
 * one process keep their own); the tests and benchmarks attach a meter of their own to a client
 * (local/metering/read-meter.ts), which counts with the same rules.
 *
 * Read units are DynamoDB's `ConsumedCapacity`, asked for only where a meter wants them, and also
 * as AWS bills them where DynamoDB Local departs from it: Local charges nothing for a read that
 * finds nothing, AWS charges the minimum, 0.5 read units eventually consistent and 1 strongly, for
 * a Query that returns nothing and for each BatchGetItem key that misses
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
 */

/** What a piece of work read. */
export interface ReadTally {
  /** Requests sent. */
  readonly requests: number;
  /** Items read from indexes (Query ScannedCount on an index, filtered-out items included), counting Queries too. */
  readonly indexItems: number;
  /** Items read by Query or Scan of a table (not an index). */
  readonly queryItems: number;
  /** Of the index and table Queries' items, those read only to count them (Select COUNT). */
  readonly countedItems: number;
  /** Items read by key (GetItem, BatchGetItem). */
  readonly keyItems: number;
  /** Index items read, by index name. */
  readonly byIndex: Readonly<Record<string, number>>;
  /** Items read from tables (by Query, Scan or key), by table name. */
  readonly byTable: Readonly<Record<string, number>>;
  /** Read units DynamoDB reported (when the meter asked for them). */
  readonly readUnits: number;
  /** Read units as AWS bills them (see the module comment). */
  readonly billedReadUnits: number;
}

/** Every item read, wherever from. */
export function itemsReadOf(tally: ReadTally): number {
  return tally.indexItems + tally.queryItems + tally.keyItems;
}

/** A tally of nothing. */
export const NO_READS: ReadTally = { requests: 0, indexItems: 0, queryItems: 0, countedItems: 0, keyItems: 0, byIndex: {}, byTable: {}, readUnits: 0, billedReadUnits: 0 };

interface Consumed {
  readonly CapacityUnits?: number;
}

function add(record: Readonly<Record<string, number>>, name: string, count: number): Readonly<Record<string, number>> {
  return count === 0 ? record : { ...record, [name]: (record[name] ?? 0) + count };
}

/** The read commands a meter counts, by the name the SDK gives them. */
/** The commands that read, as the SDK names them. */
export const READ_COMMANDS: ReadonlySet<string> = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand']);

/** What one request read: its command, its input and DynamoDB's answer (a write reads nothing here). */
export function readsOf(command: string, input: Readonly<Record<string, unknown>>, output: Readonly<Record<string, unknown>>): ReadTally {
  if (!READ_COMMANDS.has(command)) return NO_READS;
  const consumed = [output.ConsumedCapacity ?? []].flat() as Consumed[];
  const units = consumed.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
  const tally: ReadTally = { ...NO_READS, requests: 1, readUnits: units, billedReadUnits: units };
  if (command === 'QueryCommand' || command === 'ScanCommand') {
    const scanned = typeof output.ScannedCount === 'number' ? output.ScannedCount : 0;
    const minimum = input.ConsistentRead === true ? 1 : 0.5;
    const read = typeof input.IndexName === 'string'
      ? { indexItems: scanned, byIndex: add({}, input.IndexName, scanned) }
      : { queryItems: scanned, byTable: add({}, String(input.TableName), scanned) };
    return { ...tally, ...read, countedItems: input.Select === 'COUNT' ? scanned : 0, billedReadUnits: consumed.length > 0 ? Math.max(units, minimum) : 0 };
  }
  if (command === 'GetItemCommand') {
    const found = output.Item === undefined ? 0 : 1;
    return { ...tally, keyItems: found, byTable: add({}, String(input.TableName), found) };
  }
  const requested = (input.RequestItems ?? {}) as Record<string, { Keys?: unknown[]; ConsistentRead?: boolean }>;
  const unprocessed = (output.UnprocessedKeys ?? {}) as Record<string, { Keys?: unknown[] }>;
  let batch = tally;
  for (const [table, items] of Object.entries((output.Responses ?? {}) as Record<string, unknown[]>)) {
    batch = { ...batch, keyItems: batch.keyItems + items.length, byTable: add(batch.byTable, table, items.length) };
    if (consumed.length > 0) {
      const misses = (requested[table]?.Keys?.length ?? 0) - items.length - (unprocessed[table]?.Keys?.length ?? 0);
      batch = { ...batch, billedReadUnits: batch.billedReadUnits + Math.max(0, misses) * (requested[table]?.ConsistentRead === true ? 1 : 0.5) };
    }
  }
  return batch;
}

/** Two tallies added up. */
export function sumReads(a: ReadTally, b: ReadTally): ReadTally {
  const merge = (x: Readonly<Record<string, number>>, y: Readonly<Record<string, number>>) => Object.entries(y).reduce((record, [name, count]) => add(record, name, count), x);
  return {
    requests: a.requests + b.requests,
    indexItems: a.indexItems + b.indexItems,
    queryItems: a.queryItems + b.queryItems,
    countedItems: a.countedItems + b.countedItems,
    keyItems: a.keyItems + b.keyItems,
    byIndex: merge(a.byIndex, b.byIndex),
    byTable: merge(a.byTable, b.byTable),
    readUnits: a.readUnits + b.readUnits,
    billedReadUnits: a.billedReadUnits + b.billedReadUnits,
  };
}

interface Tally {
  reads: ReadTally;
}

const tallies = new AsyncLocalStorage<Tally>();
const meteredStacks = new WeakSet<object>();

/** Add the per-work tally middleware to a client once. */
function meterClient(client: DynamoDBDocumentClient): void {
  const { middlewareStack } = client;
  if (meteredStacks.has(middlewareStack)) return;
  middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const tally = tallies.getStore();
      if (tally) tally.reads = sumReads(tally.reads, readsOf(context.commandName ?? '', args.input as Record<string, unknown>, result.output as Record<string, unknown>));
      return result;
    },
    { step: 'initialize', name: 'readTally' },
  );
  meteredStacks.add(middlewareStack);
}

/** Run `work` and tally what its requests on the shared DynamoDB client read. */
export async function countingReads<T>(work: () => Promise<T>): Promise<{ readonly result: T; readonly reads: ReadTally }> {
  meterClient(getDocumentClient());
  const tally: Tally = { reads: NO_READS };
  const result = await tallies.run(tally, work);
  return { result, reads: tally.reads };
}
