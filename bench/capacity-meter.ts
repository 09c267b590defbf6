/**
 * What requests cost DynamoDB, as DynamoDB reports it: a middleware on a client's stack (the
 * document client shares the low-level client's, and libraries that take the low-level client send
 * through it too) asks every request for its consumed capacity and tallies calls, read units (by
 * the service's one read meter, functions/shared/observability/read-meter.ts: as AWS bills them,
 * a read that finds nothing at its minimum), write units per table and per index
 * (`ReturnConsumedCapacity: INDEXES`), and the conditional writes DynamoDB refused (AWS bills those
 * too: "a failed conditional write still consumes write capacity units",
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
 * DynamoDB Local reports writes as AWS bills them for single items and BatchWriteItem; for a
 * transaction it reports one unit per KB of each item, where AWS bills two
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html):
 * the fold's first stage (one transaction per batch) measures lower here than key-heat computes it.
 */
import type { MiddlewareStack } from '@smithy/types';
import { readsOf } from '../functions/shared/observability/read-meter';

/** What the requests sent while the meter was attached cost. */
export interface CapacityTally {
  /** Calls by operation, e.g. `{ GetItem: 2, PutItem: 1 }`. */
  readonly calls: Readonly<Record<string, number>>;
  /** Read units as AWS bills them. */
  readonly readUnits: number;
  /** Write units of every table and index. */
  readonly writeUnits: number;
  /** Write units per table (by name) and per index (`table index`). */
  readonly tables: Readonly<Record<string, number>>;
  readonly indexes: Readonly<Record<string, number>>;
  /** Conditional writes refused (ConditionalCheckFailedException): billed, but reported without capacity. */
  readonly refusedWrites: number;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

interface Consumed {
  readonly TableName?: string;
  readonly CapacityUnits?: number;
  readonly Table?: { readonly CapacityUnits?: number };
  readonly GlobalSecondaryIndexes?: Readonly<Record<string, { readonly CapacityUnits?: number }>>;
}

/** A meter on a client; {@link take} returns the tally so far and starts a new one. */
export interface CapacityMeter {
  take(): CapacityTally;
  detach(): void;
}

const EMPTY = (): { calls: Record<string, number>; readUnits: number; tables: Record<string, number>; indexes: Record<string, number>; refusedWrites: number } => ({ calls: {}, readUnits: 0, tables: {}, indexes: {}, refusedWrites: 0 });

let meters = 0;

/** Attaches a meter to a client's middleware stack (a DynamoDB client or document client). */
export function attachCapacityMeter(client: { readonly middlewareStack: MiddlewareStack<any, any> }): CapacityMeter {
  const name = `benchCapacityMeter${(meters += 1)}`;
  let tally = EMPTY();
  client.middlewareStack.add(
    (next: any, context: any) => async (args: any) => {
      const command = String(context.commandName ?? '');
      const operation = command.replace(/Command$/, '');
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = WRITES.has(operation) ? 'INDEXES' : 'TOTAL';
      tally.calls[operation] = (tally.calls[operation] ?? 0) + 1;
      try {
        const result = await next(args);
        const output = result.output as Record<string, unknown>;
        tally.readUnits += readsOf(command, input, output).billedReadUnits;
        if (WRITES.has(operation)) {
          for (const consumed of [output.ConsumedCapacity ?? []].flat() as Consumed[]) {
            const table = consumed.TableName ?? '';
            tally.tables[table] = (tally.tables[table] ?? 0) + (consumed.Table?.CapacityUnits ?? consumed.CapacityUnits ?? 0);
            for (const [index, units] of Object.entries(consumed.GlobalSecondaryIndexes ?? {})) tally.indexes[`${table} ${index}`] = (tally.indexes[`${table} ${index}`] ?? 0) + (units.CapacityUnits ?? 0);
          }
        }
        return result;
      } catch (error) {
        if ((error as { name?: string }).name === 'ConditionalCheckFailedException') tally.refusedWrites += 1;
        throw error;
      }
    },
    { step: 'initialize', name },
  );
  return {
    take: () => {
      const taken = tally;
      tally = EMPTY();
      const writeUnits = [...Object.values(taken.tables), ...Object.values(taken.indexes)].reduce((sum, units) => sum + units, 0);
      return { calls: taken.calls, readUnits: taken.readUnits, writeUnits, tables: taken.tables, indexes: taken.indexes, refusedWrites: taken.refusedWrites };
    },
    detach: () => void client.middlewareStack.remove(name),
  };
}

/** Items written per table name while a {@link WriteCounter} was attached. */
export type WrittenItems = Readonly<Record<string, number>>;

/** A count of the items written through a client; {@link take} returns it and starts a new one. */
export interface WriteCounter {
  take(): WrittenItems;
  detach(): void;
}

/** The items a write request asks to write, by table: one per single-item write, batch request or transaction action (its condition checks write nothing). */
function itemsWritten(operation: string, input: Record<string, unknown>): [string, number][] {
  switch (operation) {
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [[String(input.TableName), 1]];
    case 'BatchWriteItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, unknown[]>).map(([table, requests]) => [table, requests.length]);
    case 'TransactWriteItems':
      return ((input.TransactItems ?? []) as Record<string, { TableName?: string } | undefined>[]).flatMap((action) => {
        const write = action.Put ?? action.Update ?? action.Delete;
        return write === undefined ? [] : [[String(write.TableName), 1] as [string, number]];
      });
    default:
      return [];
  }
}

/**
 * Counts the items a client's requests write, per table, without asking DynamoDB for its consumed
 * capacity (so that the requests counted are the requests a run sends): how many writes a phase
 * adds to DynamoDB Local's single writer, table by table. A request that fails is counted too: it
 * took its turn.
 */
export function attachWriteCounter(client: { readonly middlewareStack: MiddlewareStack<any, any> }): WriteCounter {
  const name = `benchWriteCounter${(meters += 1)}`;
  let counts: Record<string, number> = {};
  client.middlewareStack.add(
    (next: any, context: any) => async (args: any) => {
      for (const [table, items] of itemsWritten(String(context.commandName ?? '').replace(/Command$/, ''), args.input as Record<string, unknown>)) counts[table] = (counts[table] ?? 0) + items;
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    take: () => {
      const taken = counts;
      counts = {};
      return taken;
    },
    detach: () => void client.middlewareStack.remove(name),
  };
}
