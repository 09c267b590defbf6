import { AsyncLocalStorage } from 'node:async_hooks';
import { getDocumentClient } from '../aws/clients';

/**
 * How many DynamoDB items a piece of work read, as DynamoDB reports it: the figure behind the
 * "items read per item returned" of the listings. A middleware on the shared client adds each
 * answer's items to the tally of the work that sent the request; the tally is found through an
 * AsyncLocalStorage, so requests served at once in one process (the local gateway) keep their own.
 */

interface Tally {
  items: number;
}

const tallies = new AsyncLocalStorage<Tally>();
const meteredStacks = new WeakSet<object>();

/** What an answer says was read: Query and Scan count what they read (filtered out or only counted too), GetItem its item, BatchGetItem its items. */
function itemsRead(output: Record<string, unknown>): number {
  if (typeof output.ScannedCount === 'number') return output.ScannedCount;
  if (output.Item !== undefined) return 1;
  const responses = output.Responses;
  if (responses === null || typeof responses !== 'object' || Array.isArray(responses)) return 0;
  return Object.values(responses).reduce((sum: number, items) => sum + (Array.isArray(items) ? items.length : 0), 0);
}

/** Add the tally middleware to the shared client once (a new client, after a reset, gets its own). */
function meterSharedClient(): void {
  const { middlewareStack } = getDocumentClient();
  if (meteredStacks.has(middlewareStack)) return;
  middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const tally = tallies.getStore();
      if (tally) tally.items += itemsRead(result.output as Record<string, unknown>);
      return result;
    },
    { step: 'initialize', name: 'readTally' },
  );
  meteredStacks.add(middlewareStack);
}

/** Run `work` and count the items its requests on the shared DynamoDB client read. */
export async function countingReads<T>(work: () => Promise<T>): Promise<{ readonly result: T; readonly itemsRead: number }> {
  meterSharedClient();
  const tally: Tally = { items: 0 };
  const result = await tallies.run(tally, work);
  return { result, itemsRead: tally.items };
}
