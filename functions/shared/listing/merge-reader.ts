import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { partitionQuery, type IndexPartition, type ItemFilter, type ListedItem } from './index-partition';
import { compareKeys, intersectWindows, isEmptyWindow, keyAfter, keyBefore, type KeyWindow } from './key-window';

/**
 * The one listing engine: a page of the merge of sorted streams of index partitions. Every
 * listing of the service (users, the media log) reads through it, so reading about what a page
 * returns, resuming after a cursor and the read budget are implemented once.
 */

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
  /**
   * Whether its items pass the listing only once the request's `check` says so: a condition its
   * index items cannot show (the media log's statuses, which no index holds).
   */
  readonly checked?: boolean;
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
  /** Most items DynamoDB may read for the page (filtered-out and checked ones included); the page ends early beyond it. */
  readonly readBudget: number;
  /**
   * Whether each item of a checked stream passes (one verdict per item, in order): a run of
   * candidates in merge order is checked at once, as one read of the items they stand for.
   */
  readonly check?: (items: readonly ListedItem[]) => Promise<readonly boolean[]>;
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
  /** Whether the stream has been read once already (it then ran dry with the page unfinished). */
  refilled?: boolean;
}

function overlaps(span: KeyWindow | undefined, window: KeyWindow): boolean {
  return span === undefined || !isEmptyWindow(intersectWindows(span, window));
}

/** Most candidates checked at once: what one BatchGetItem reads. */
const MAX_CHECK_RUN = 100;

/** A popped head, not yet taken or passed over. */
interface Candidate {
  readonly state: StreamState;
  readonly item: ListedItem;
}

/**
 * Read a page: skip `skip` matching items, take `take`, from the merge of `streams` in sort order.
 * Each stream is read lazily in chunks sized by its share of the items still missing and by how
 * many of its reads its filter is expected to drop, so a page reads about what it returns, however
 * many streams merge (plus the one head per stream that lost the last comparison).
 *
 * Items of a checked stream count only once the request's `check` passes them: the next run of
 * candidates in merge order (as many as the page still needs, scaled by the streams' expected
 * share of matches) is checked at once, and candidates the page turns out not to need go back to
 * their streams.
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
  const candidatesPerMatch = Math.max(1, request.streams.reduce((sum, stream) => sum + Math.max(stream.expectedCandidates ?? 1, stream.expectedMatches ?? 1), 0) / expected);
  const goal = request.skip + request.take;
  const items: ListedItem[] = [];
  const budget = { scanned: 0 };
  let taken = 0;
  let lastTaken: string | undefined;
  const keyOf = (item: ListedItem) => item[request.sortAttribute] as string;
  const order = (a: string, b: string) => (request.ascending ? compareKeys(a, b) : compareKeys(b, a));
  const needsCheck = (state: StreamState) => request.check !== undefined && state.stream.checked === true;

  /** Take or pass over a run of candidates, in order; what the page does not need goes back to its stream. */
  const settle = async (run: readonly Candidate[]): Promise<void> => {
    const checked = run.filter((candidate) => needsCheck(candidate.state));
    const verdicts = checked.length === 0 ? [] : await (request.check as NonNullable<MergeRequest['check']>)(checked.map((candidate) => candidate.item));
    const passes = new Map(checked.map((candidate, position) => [candidate, verdicts[position] === true]));
    for (let position = 0; position < run.length; position += 1) {
      if (taken >= goal) {
        for (let back = run.length - 1; back >= position; back -= 1) (run[back] as Candidate).state.buffer.unshift((run[back] as Candidate).item);
        return;
      }
      const candidate = run[position] as Candidate;
      if (passes.get(candidate) === false) continue;
      lastTaken = keyOf(candidate.item);
      taken += 1;
      if (taken > request.skip) items.push(candidate.item);
    }
  };

  let bound: string | undefined;
  while (taken < goal && bound === undefined) {
    const run: Candidate[] = [];
    // One candidate at a time where nothing needs checking; a run as long as the page needs where something does.
    const runLength = request.check === undefined ? 1 : Math.min(MAX_CHECK_RUN, Math.ceil((goal - taken) * candidatesPerMatch));
    while (run.length < runLength) {
      await Promise.all(states.filter((state) => state.buffer.length === 0 && !state.done).map((state) => fill(client, request, state, budget, goal - taken, expected)));
      const starved = states.filter((state) => state.buffer.length === 0 && !state.done);
      if (starved.length > 0) {
        bound = starved.map((state) => state.lastRead as string).reduce((earliest, key) => (order(key, earliest) < 0 ? key : earliest));
        break;
      }
      const best = firstHead(states, keyOf, order);
      if (best === undefined) break;
      if (needsCheck(best)) {
        if (budget.scanned >= request.readBudget) {
          // No budget left to check this candidate: the page ends just before it, and the next one starts with it.
          if (run.length === 0) bound = justBefore(keyOf(best.buffer[0] as ListedItem), request.ascending);
          break;
        }
        // Checking reads the item a candidate stands for: spent now, so that later fills see it.
        budget.scanned += 1;
      }
      run.push({ state: best, item: best.buffer.shift() as ListedItem });
    }
    if (run.length === 0) break;
    await settle(run);
  }
  if (bound !== undefined && taken < goal) {
    // The budget is spent: take what every stream agrees on, up to the starved streams' bound (and
    // before the first candidate there is no budget left to check).
    const run: Candidate[] = [];
    for (let best = firstHead(states, keyOf, order); best && order(keyOf(best.buffer[0] as ListedItem), bound) <= 0; best = firstHead(states, keyOf, order)) {
      if (needsCheck(best)) {
        bound = justBefore(keyOf(best.buffer[0] as ListedItem), request.ascending);
        break;
      }
      run.push({ state: best, item: best.buffer.shift() as ListedItem });
    }
    await settle(run);
  }
  const more = states.some((state) => state.buffer.length > 0 || !state.done);
  const resumeAfter = taken >= goal || bound === undefined ? lastTaken : bound;
  return { items, ...(resumeAfter === undefined ? {} : { resumeAfter }), more, budgetSpent: bound !== undefined };
}

/** A bound that every key before `key` in walk order is up to, and `key` is not. */
function justBefore(key: string, ascending: boolean): string {
  return ascending ? keyBefore(key) : keyAfter(key);
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
 * budget is spent: its share of the `missing` items (by its part of the `expected` matches) scaled
 * by how many of its reads its filter drops, and one more; on to the next partition when one is
 * exhausted.
 */
async function fill(client: DynamoDBDocumentClient, request: MergeRequest, state: StreamState, budget: { scanned: number }, missing: number, expected: number): Promise<void> {
  const candidates = Math.max(state.stream.expectedCandidates ?? 1, state.stream.expectedMatches ?? 1, 1);
  // Its share, and one more: a Query is billed at least half a read unit whatever it returns, so
  // learning the head that follows the share costs a few bytes where another Query would cost a
  // whole minimum (merged shards each hold one such head after the page). A stream that ran dry
  // before the page was full holds more than its share: it is read for all the page still needs.
  const share = state.refilled === true ? missing / Math.max(1, state.stream.expectedMatches ?? 1) : missing / expected;
  const wanted = Math.max(1, Math.ceil(share * candidates)) + 1;
  state.refilled = true;
  while (state.buffer.length === 0 && !state.done && budget.scanned < request.readBudget) {
    const partition = state.stream.partitions[state.index] as IndexPartition;
    if (overlaps(partition.span, request.window)) {
      // Streams fill at once: the chunk is taken from the budget before the Query, so together they never overdraw it.
      const limit = Math.min(MAX_CHUNK, request.readBudget - budget.scanned, wanted);
      budget.scanned += limit;
      const output = await client.send(
        new QueryCommand({
          ...partitionQuery(request.tableName, request.sortAttribute, partition, request.window, state.stream.filter),
          ScanIndexForward: request.ascending,
          Limit: limit,
          ...(state.start === undefined ? {} : { ExclusiveStartKey: state.start }),
        }),
      );
      budget.scanned += (output.ScannedCount ?? 0) - limit;
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
