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
    const start = options.starts?.[index] ?? null;
    return { stream, buffer: [], next: start, consumed: start };
  });
  const chunk = Math.min(1000, Math.max(10, Math.ceil((options.skip + options.take) / Math.max(1, streams.length)) + 1));
  let scanned = 0;

  const fill = async (state: StreamState): Promise<void> => {
    while (state.buffer.length === 0 && state.next !== 'done') {
      const output = await client.send(
        new QueryCommand({
          ...state.stream.query,
          ScanIndexForward: !options.descending,
          Limit: chunk,
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

  const items: Record<string, unknown>[] = [];
  let skipped = 0;
  while (items.length < options.take) {
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
  await Promise.all(states.map(fill));
  const positions = states.map((state) => (state.buffer.length === 0 && state.next === 'done' ? 'done' : state.consumed));
  return { items, positions, more: positions.some((position) => position !== 'done'), scanned };
}
