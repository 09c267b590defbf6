import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * What the writes sent on a client consumed, in DynamoDB's own write units: each write asks for its
 * consumed capacity with the indexes' share (`ReturnConsumedCapacity: INDEXES`), and the meter adds
 * the table's and each index's units up. DynamoDB Local reports them as AWS bills them for the
 * writes the service makes (single-item writes and BatchWriteItem; it under-counts transactions,
 * which the media log no longer uses).
 */

/** Write units consumed, per table and per index (`table index`). */
export interface WriteTally {
  readonly writes: number;
  readonly tables: Readonly<Record<string, number>>;
  readonly indexes: Readonly<Record<string, number>>;
}

/** All of a tally's units. */
export function unitsOf(tally: WriteTally): number {
  return [...Object.values(tally.tables), ...Object.values(tally.indexes)].reduce((sum, units) => sum + units, 0);
}

/** The write commands the meter counts, by the name the SDK gives them. */
const WRITE_COMMANDS = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);

interface Consumed {
  readonly TableName?: string;
  readonly Table?: { readonly CapacityUnits?: number };
  readonly GlobalSecondaryIndexes?: Readonly<Record<string, { readonly CapacityUnits?: number }>>;
}

/** A meter on a client's writes, while attached. */
export interface WriteMeter {
  tally(): WriteTally;
  detach(): void;
}

let meters = 0;

/** Measure every write `client` sends while attached. */
export function attachWriteMeter(client: DynamoDBDocumentClient): WriteMeter {
  const name = `writeMeter${(meters += 1)}`;
  const tables: Record<string, number> = {};
  const indexes: Record<string, number> = {};
  let writes = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!WRITE_COMMANDS.has(context.commandName ?? '')) return next(args);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      writes += 1;
      for (const consumed of [(result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity ?? []].flat()) {
        const table = consumed.TableName ?? '';
        tables[table] = (tables[table] ?? 0) + (consumed.Table?.CapacityUnits ?? 0);
        for (const [index, units] of Object.entries(consumed.GlobalSecondaryIndexes ?? {})) indexes[`${table} ${index}`] = (indexes[`${table} ${index}`] ?? 0) + (units.CapacityUnits ?? 0);
      }
      return result;
    },
    { step: 'initialize', name },
  );
  return {
    tally: () => ({ writes, tables: { ...tables }, indexes: { ...indexes } }),
    detach: () => void client.middlewareStack.remove(name),
  };
}
