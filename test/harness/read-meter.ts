import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** What DynamoDB read for the calls made while a meter was attached. */
export interface ReadTally {
  /** Requests sent. */
  readonly requests: number;
  /** Items listing queries read (ScannedCount of index Queries, filtered-out items included). */
  readonly entriesRead: number;
  /** Items read only to count them (Select COUNT). */
  readonly entriesCounted: number;
  /** Items listing queries read, by index name (Select COUNT left out). */
  readonly entriesReadByIndex: Readonly<Record<string, number>>;
  /** Items read from the table itself: counters and kept totals, single items by key. */
  readonly tableItemsRead: number;
  /** Read capacity consumed (ReturnConsumedCapacity TOTAL). */
  readonly capacity: number;
}

const EMPTY: ReadTally = { requests: 0, entriesRead: 0, entriesCounted: 0, entriesReadByIndex: {}, tableItemsRead: 0, capacity: 0 };

/** A meter on a client: reads it while attached. */
export interface ReadMeter {
  tally(): ReadTally;
  reset(): void;
  detach(): void;
}

let meters = 0;

/**
 * Measure what a listing reads, as DynamoDB reports it, with a middleware on the client: the
 * production code is measured as it runs, without a statistics parameter threaded through it.
 * Attach it around one request at a time (everything the client sends is counted).
 */
export function attachReadMeter(client: DynamoDBDocumentClient): ReadMeter {
  const name = `readMeter${(meters += 1)}`;
  let tally: ReadTally = EMPTY;
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as { ScannedCount?: number; Item?: unknown; Responses?: unknown; ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] };
      const capacity = [output.ConsumedCapacity ?? []].flat().reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
      const scanned = output.ScannedCount ?? 0;
      const onIndex = typeof input.IndexName === 'string';
      tally = {
        requests: tally.requests + 1,
        entriesRead: tally.entriesRead + (onIndex && input.Select !== 'COUNT' ? scanned : 0),
        entriesCounted: tally.entriesCounted + (input.Select === 'COUNT' ? scanned : 0),
        entriesReadByIndex:
          onIndex && input.Select !== 'COUNT'
            ? { ...tally.entriesReadByIndex, [input.IndexName as string]: (tally.entriesReadByIndex[input.IndexName as string] ?? 0) + scanned }
            : tally.entriesReadByIndex,
        tableItemsRead: tally.tableItemsRead + (!onIndex && input.Select !== 'COUNT' ? scanned : 0) + (output.Item !== undefined ? 1 : 0),
        capacity: tally.capacity + capacity,
      };
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    tally: () => tally,
    reset: () => {
      tally = EMPTY;
    },
    detach: () => void client.middlewareStack.remove(name),
  };
}
