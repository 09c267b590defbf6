import { QueryCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { compareKeys, intersectWindows, isEmptyWindow, type KeyWindow } from './key-window';

/**
 * The one listing engine: a page of the merge of sorted streams of index partitions. Every
 * listing of the service (users, the media log) reads through it, so reading about what a page
 * returns, resuming after a cursor and the read budget are implemented once.
 */

/** A stored item, as the document client returns it. */
export type ListedItem = Record<string, unknown>;

/** A DynamoDB filter expression with its placeholders, checked on each item read. */
export interface ItemFilter {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, unknown>>;
}

/** One partition of a listing index. */
export interface IndexPartition {
  readonly indexName: string;
  readonly attribute: string;
  readonly value: string;
  /** The sort keys the partition can hold (a month's partition): it is skipped when outside the window. */
  readonly span?: KeyWindow;
}

/**
 * A sorted stream: partitions walked one after another in walk order (each a later stretch of the
 * sort key, or a single partition), read with the same filter.
 */
export interface SortedStream {
  readonly partitions: readonly IndexPartition[];
  readonly filter?: ItemFilter;
  /** Matching items expected from this stream (its share of a page); equal shares by default. */
  readonly expectedMatches?: number;
  /** Items it will read for them (more than the matches when the filter drops some). */
  readonly expectedCandidates?: number;
}

/** What to read. */
export interface MergeRequest {
  readonly tableName: string;
  /** The sort key of every index read: the merge order. */
  readonly sortAttribute: string;
  readonly streams: readonly SortedStream[];
  readonly window: KeyWindow;
  readonly ascending: boolean;
  /** Matching items to pass over before the page (offset paging within a located stretch). */
  readonly skip: number;
  readonly take: number;
  /** Most items DynamoDB may read for the page (filtered-out ones included); the page ends early beyond it. */
  readonly readBudget: number;
}

/** A page of the merge. */
export interface MergedPage {
  readonly items: ListedItem[];
  /**
   * The sort key the next page resumes after: every item up to it (in walk order) has been returned,
   * passed over or filtered out. Undefined when nothing was taken or read.
   */
  readonly resumeAfter?: string;
  /** Whether any stream may hold more matching items after the page. */
  readonly more: boolean;
  /** Whether the read budget cut the page short. */
  readonly budgetSpent: boolean;
}

/** Largest Limit of one Query: beyond it a read is split anyway (1 MB per response). */
const MAX_CHUNK = 1000;

interface StreamState {
  readonly stream: SortedStream;
  index: number;
  start?: Record<string, unknown>;
  readonly buffer: ListedItem[];
  done: boolean;
  /** Sort key of the last item DynamoDB read in this stream (matching or not). */
  lastRead?: string;
}

function overlaps(span: KeyWindow | undefined, window: KeyWindow): boolean {
  return span === undefined || !isEmptyWindow(intersectWindows(span, window));
}

/** The Query of one partition within a window: key condition, optional filter. */
export function partitionQuery(tableName: string, sortAttribute: string, partition: IndexPartition, window: KeyWindow, filter?: ItemFilter): QueryCommandInput {
  const names: Record<string, string> = { '#p': partition.attribute, ...filter?.names };
  const values: Record<string, unknown> = { ':p': partition.value, ...filter?.values };
  let condition = '#p = :p';
  if (window.lo !== undefined || window.hi !== undefined) names['#k'] = sortAttribute;
  if (window.lo !== undefined) values[':lo'] = window.lo;
  if (window.hi !== undefined) values[':hi'] = window.hi;
  if (window.lo !== undefined && window.hi !== undefined) condition += ' AND #k BETWEEN :lo AND :hi';
  else if (window.lo !== undefined) condition += ' AND #k >= :lo';
  else if (window.hi !== undefined) condition += ' AND #k <= :hi';
  return {
    TableName: tableName,
    IndexName: partition.indexName,
    KeyConditionExpression: condition,
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/**
 * Read a page: skip `skip` matching items, take `take`, from the merge of `streams` in sort order.
 * Each stream is read lazily in chunks sized by its share of the items still missing and by how
 * many of its reads its filter is expected to drop, so a page reads about what it returns, however
 * many streams merge (plus the one head per stream that lost the last comparison).
 *
 * Reading stops once the read budget is spent: a stream whose filter dropped everything it read
 * ("starved") may still hold the next match. Every item up to the earliest point the starved
 * streams have read to is known, so the page takes what lies up to there and ends: fewer items
 * than asked, and a resume point strictly further on, as DynamoDB's own paging does at 1 MB.
 */
export async function readMergedPage(client: DynamoDBDocumentClient, request: MergeRequest): Promise<MergedPage> {
  if (request.take <= 0 || isEmptyWindow(request.window)) return { items: [], more: false, budgetSpent: false };
  const states: StreamState[] = request.streams.map((stream) => ({ stream, index: 0, buffer: [], done: stream.partitions.length === 0 }));
  const expected = Math.max(1, request.streams.reduce((sum, stream) => sum + (stream.expectedMatches ?? 1), 0));
  const goal = request.skip + request.take;
  const items: ListedItem[] = [];
  const budget = { scanned: 0 };
  let taken = 0;
  let lastTaken: string | undefined;
  const keyOf = (item: ListedItem) => item[request.sortAttribute] as string;
  const order = (a: string, b: string) => (request.ascending ? compareKeys(a, b) : compareKeys(b, a));
  const take = (state: StreamState): void => {
    const item = state.buffer.shift() as ListedItem;
    lastTaken = keyOf(item);
    taken += 1;
    if (taken > request.skip) items.push(item);
  };

  let bound: string | undefined;
  while (taken < goal) {
    await Promise.all(states.filter((state) => state.buffer.length === 0 && !state.done).map((state) => fill(client, request, state, budget, (goal - taken) / expected)));
    const starved = states.filter((state) => state.buffer.length === 0 && !state.done);
    if (starved.length > 0) {
      bound = starved.map((state) => state.lastRead as string).reduce((earliest, key) => (order(key, earliest) < 0 ? key : earliest));
      break;
    }
    const best = firstHead(states, keyOf, order);
    if (best === undefined) break;
    take(best);
  }
  if (bound !== undefined) {
    // The budget is spent: take what every stream agrees on, up to the starved streams' bound.
    for (let best = firstHead(states, keyOf, order); best && taken < goal && order(keyOf(best.buffer[0] as ListedItem), bound) <= 0; best = firstHead(states, keyOf, order)) take(best);
  }
  const more = states.some((state) => state.buffer.length > 0 || !state.done);
  const resumeAfter = taken >= goal || bound === undefined ? lastTaken : bound;
  return { items, ...(resumeAfter === undefined ? {} : { resumeAfter }), more, budgetSpent: bound !== undefined };
}

/** The stream whose buffered head comes first in walk order, if any has one. */
function firstHead(states: readonly StreamState[], keyOf: (item: ListedItem) => string, order: (a: string, b: string) => number): StreamState | undefined {
  let best: StreamState | undefined;
  for (const state of states) {
    const head = state.buffer[0];
    if (head !== undefined && (best === undefined || order(keyOf(head), keyOf(best.buffer[0] as ListedItem)) < 0)) best = state;
  }
  return best;
}

/**
 * Read the next chunk of a stream whose buffer ran dry, until it holds an item, is exhausted or the
 * budget is spent: its share (`perShare` items per expected match) scaled by how many of its reads
 * its filter drops; on to the next partition when one is exhausted.
 */
async function fill(client: DynamoDBDocumentClient, request: MergeRequest, state: StreamState, budget: { scanned: number }, perShare: number): Promise<void> {
  const candidates = Math.max(state.stream.expectedCandidates ?? 1, state.stream.expectedMatches ?? 1, 1);
  const wanted = Math.max(1, Math.round(perShare * candidates));
  while (state.buffer.length === 0 && !state.done && budget.scanned < request.readBudget) {
    const partition = state.stream.partitions[state.index] as IndexPartition;
    if (overlaps(partition.span, request.window)) {
      const output = await client.send(
        new QueryCommand({
          ...partitionQuery(request.tableName, request.sortAttribute, partition, request.window, state.stream.filter),
          ScanIndexForward: request.ascending,
          Limit: Math.min(MAX_CHUNK, request.readBudget - budget.scanned, wanted),
          ...(state.start === undefined ? {} : { ExclusiveStartKey: state.start }),
        }),
      );
      budget.scanned += output.ScannedCount ?? 0;
      state.buffer.push(...(output.Items ?? []));
      state.start = output.LastEvaluatedKey;
      // LastEvaluatedKey carries the index's sort key too: how far this stream has read, matches or not.
      const lastRead = state.start?.[request.sortAttribute] ?? state.buffer.at(-1)?.[request.sortAttribute];
      if (typeof lastRead === 'string') state.lastRead = lastRead;
    }
    if (state.start === undefined) {
      state.index += 1;
      state.done = state.index >= state.stream.partitions.length;
    }
  }
}
