/**
 * What a request costs DynamoDB, as DynamoDB reports it: a middleware on the process-wide client
 * (the document client and libraries that take the low-level client send through the same stack)
 * asks every request for its consumed capacity and tallies calls, read and write units, and the
 * conditional writes DynamoDB refused (AWS bills those too: "a failed conditional write still
 * consumes write capacity units", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** What the requests sent while the meter was attached cost. */
export interface CapacityTally {
  /** Calls by operation, e.g. `{ GetItem: 2, PutItem: 1 }`. */
  readonly calls: Readonly<Record<string, number>>;
  readonly readUnits: number;
  readonly writeUnits: number;
  /** Conditional writes refused (ConditionalCheckFailedException): billed, but reported without capacity. */
  readonly refusedWrites: number;
}

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

/** A meter on the client; {@link take} returns the tally so far and starts a new one. */
export interface CapacityMeter {
  take(): CapacityTally;
  detach(): void;
}

/** Attaches a meter to `client`'s middleware stack. */
export function attachCapacityMeter(client: DynamoDBClient): CapacityMeter {
  const name = 'benchCapacityMeter';
  let calls: Record<string, number> = {};
  let readUnits = 0;
  let writeUnits = 0;
  let refusedWrites = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const operation = String((context as { commandName?: string }).commandName).replace(/Command$/, '');
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      calls[operation] = (calls[operation] ?? 0) + 1;
      try {
        const result = await next(args);
        const consumed = [(result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity ?? []].flat() as { CapacityUnits?: number }[];
        const units = consumed.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0);
        if (READS.has(operation)) readUnits += units;
        else writeUnits += units;
        return result;
      } catch (error) {
        if ((error as { name?: string }).name === 'ConditionalCheckFailedException') refusedWrites += 1;
        throw error;
      }
    },
    { step: 'initialize', name },
  );
  return {
    take: () => {
      const tally = { calls, readUnits, writeUnits, refusedWrites };
      calls = {};
      readUnits = 0;
      writeUnits = 0;
      refusedWrites = 0;
      return tally;
    },
    detach: () => void client.middlewareStack.remove(name),
  };
}
