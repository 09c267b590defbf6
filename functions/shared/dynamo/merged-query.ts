import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';

/** A DynamoDB key, as ExclusiveStartKey / LastEvaluatedKey carry it. */
export type ItemKey = Record<string, string | number>;

/** Where a partition's read stands: from the start (null), after a key, or exhausted. */
export type PartitionPosition = ItemKey | null | 'done';

/** One sorted stream: a Query over one index partition, read in key order. */
export interface SortedStream {
  /** The Query (table, index, key condition, filter); Limit and ExclusiveStartKey are managed here. */
  readonly query: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey' | 'ScanIndexForward'>;
  /** Attributes that make up an item's key in this index (table keys and index keys). */
  readonly keyAttributes: readonly string[];
  /** The partition key attribute and value this stream reads: a resumed position must lie in it. */
  readonly partition: { readonly attribute: string; readonly value: string };
}

/** A resume position that does not belong to its stream (a cursor from elsewhere). */
export class ForeignPositionError extends Error {
  public constructor() {
    super('A resume position lies outside its stream.');
    this.name = 'ForeignPositionError';
  }
}

function checkPosition(stream: SortedStream, position: PartitionPosition): PartitionPosition {
  if (position === null || position === 'done') return position;
  const names = Object.keys(position).sort();
  const expected = [...stream.keyAttributes].sort();
  const wellFormed = names.length === expected.length && names.every((name, index) => name === expected[index]) &&
    names.every((name) => ['string', 'number'].includes(typeof position[name]));
  if (!wellFormed || position[stream.partition.attribute] !== stream.partition.value) throw new ForeignPositionError();
  return position;
}

/** A page read from several sorted streams. */
export interface MergedPage<T> {
  readonly items: T[];
  /** Per stream, where the next page starts: the opaque cursor's content. */
  readonly positions: PartitionPosition[];
  /** Whether any stream may hold more items after this page. */
  readonly more: boolean;
  /** Items DynamoDB read (ScannedCount, filtered-out items included): the cost of the page. */
  readonly scanned: number;
}

interface StreamState {
  readonly stream: SortedStream;
  buffer: Record<string, unknown>[];
  /** Key to continue the Query from; null at start; 'done' when DynamoDB has nothing more. */
  next: PartitionPosition;
  /** Position after the last item handed out. */
  consumed: PartitionPosition;
}

function keyOf(item: Record<string, unknown>, attributes: readonly string[]): ItemKey {
  return Object.fromEntries(attributes.map((name) => [name, item[name] as string | number]));
}

/**
 * Read one page of the merge of several index partitions sorted on the same attribute: skip
 * `skip` items, return `take`. Each partition is read lazily in chunks, so a page costs about
 * what it returns (plus what it skips); the positions let the next page resume without re-reading.
 */
export async function readMergedPage(
  client: DynamoDBDocumentClient,
  streams: readonly SortedStream[],
  options: { sortAttribute: string; descending: boolean; skip: number; take: number; starts?: readonly PartitionPosition[] },
): Promise<MergedPage<Record<string, unknown>>> {
  const states: StreamState[] = streams.map((stream, index) => {
    const start = checkPosition(stream, options.starts?.[index] ?? null);
    return { stream, buffer: [], next: start, consumed: start };
  });
  let scanned = 0;
  let skipped = 0;
  const items: Record<string, unknown>[] = [];
  const remaining = () => options.skip + options.take - skipped - items.length;

  // Each read asks for about what is still missing, shared among the streams still open: a single
  // stream reads exactly its page; several read a little ahead so the merge can compare their heads.
  const fill = async (state: StreamState): Promise<void> => {
    while (state.buffer.length === 0 && state.next !== 'done' && remaining() > 0) {
      const open = states.filter((other) => other.next !== 'done' || other.buffer.length > 0).length;
      const output = await client.send(
        new QueryCommand({
          ...state.stream.query,
          ScanIndexForward: !options.descending,
          Limit: Math.min(1000, Math.max(1, Math.ceil(remaining() / Math.max(1, open)))),
          ...(state.next === null ? {} : { ExclusiveStartKey: state.next }),
        }),
      );
      scanned += output.ScannedCount ?? 0;
      state.buffer.push(...(output.Items ?? []));
      state.next = output.LastEvaluatedKey ? (output.LastEvaluatedKey as ItemKey) : 'done';
    }
  };

  const compare = (a: Record<string, unknown>, b: Record<string, unknown>): number => {
    const left = String(a[options.sortAttribute]);
    const right = String(b[options.sortAttribute]);
    const order = left < right ? -1 : left > right ? 1 : 0;
    return options.descending ? -order : order;
  };

  while (remaining() > 0) {
    await Promise.all(states.map(fill));
    let best: StreamState | undefined;
    for (const state of states) {
      const head = state.buffer[0];
      if (head !== undefined && (best === undefined || compare(head, best.buffer[0] as Record<string, unknown>) < 0)) best = state;
    }
    if (!best) break;
    const item = best.buffer.shift() as Record<string, unknown>;
    best.consumed = keyOf(item, best.stream.keyAttributes);
    if (skipped < options.skip) skipped += 1;
    else items.push(item);
  }
  // No read ahead to learn whether more exists: a stream with items buffered or a continuation key
  // may have more (at worst the next page comes back empty, as with DynamoDB's own paging).
  const positions = states.map((state) => (state.buffer.length === 0 && state.next === 'done' ? 'done' : state.consumed));
  return { items, positions, more: positions.some((position) => position !== 'done'), scanned };
}
