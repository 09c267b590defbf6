import type { IndexPartition, IndexQuery, ItemFilter, ListedItem } from './index-query';
import { compareKeys, edgeAfter, edgeAt, edgeBefore, type KeyRange } from './key-range';
import type { ReadBudget } from './read-budget';

/**
 * The streams a page merges (merge-reader.ts): their buffers, how far each has been read, and
 * reading them within the page's budget so that their heads can be taken in walk order.
 */

/** A sorted stream: one partition, read with one filter. */
export interface SortedStream {
  readonly partition: IndexPartition;
  readonly filter?: ItemFilter;
  /** Matching items expected from this stream (its share of a page); equal shares by default. */
  readonly expectedMatches?: number;
  /** Items it will read for them (more than the matches when the filter or the check drops some). */
  readonly expectedCandidates?: number;
}

/** Most items one chunk of a stream reads: beyond, a response is cut at 1 MB anyway. */
const MAX_CHUNK = 1000;

/** One stream as the page reads it. */
export interface StreamState {
  readonly stream: SortedStream;
  start?: ListedItem;
  readonly buffer: ListedItem[];
  done: boolean;
  /** Sort key of the last item read in this stream, passed or not: everything up to it is known. */
  frontier?: string;
  /** Whether the stream was read once already (it then ran dry with the page unfinished). */
  refilled: boolean;
}

/** A stream's head: the first item it holds that the page has not taken or left out. */
export interface Head {
  readonly state: StreamState;
  readonly key: string;
}

/** The streams of one page. */
export class MergedStreams {
  private readonly states: StreamState[];
  /** Matches expected from all streams together. */
  public readonly expected: number;
  /** Candidates read per match expected, all streams together. */
  public readonly candidatesPerMatch: number;

  public constructor(
    private readonly query: IndexQuery,
    private readonly read: { readonly streams: readonly SortedStream[]; readonly range: KeyRange; readonly ascending: boolean; readonly budget: ReadBudget },
  ) {
    this.states = read.streams.map((stream) => ({ stream, buffer: [], done: false, refilled: false }));
    this.expected = Math.max(1, read.streams.reduce((sum, stream) => sum + (stream.expectedMatches ?? 1), 0));
    const candidates = read.streams.reduce((sum, stream) => sum + Math.max(stream.expectedCandidates ?? 1, stream.expectedMatches ?? 1), 0);
    this.candidatesPerMatch = Math.max(1, candidates / this.expected);
  }

  /** The sort key of an item of a stream. */
  public keyOf(item: ListedItem, state: StreamState): string {
    return item[state.stream.partition.sortAttribute] as string;
  }

  /** The head that comes first in walk order, if any stream holds one. */
  public firstHead(): Head | undefined {
    let best: Head | undefined;
    for (const state of this.states) {
      const head = state.buffer[0];
      if (head === undefined) continue;
      const key = this.keyOf(head, state);
      if (best === undefined || (this.read.ascending ? compareKeys(key, best.key) < 0 : compareKeys(key, best.key) > 0)) best = { state, key };
    }
    return best;
  }

  /** Whether any stream may hold more items: a buffered one, or one not read through. */
  public more(): boolean {
    return this.states.some((state) => state.buffer.length > 0 || !state.done);
  }

  /**
   * The edge the walk stands at: the earliest of every stream's unread head and of the frontier of
   * every stream not read through (the least-advanced point of every unfinished stream); absent
   * when every stream is read through.
   */
  public earliestEdge(): string | undefined {
    const { ascending } = this.read;
    const edges = this.states.flatMap((state) => {
      const head = state.buffer[0];
      if (head !== undefined) return [edgeAt(this.keyOf(head, state), ascending)];
      if (state.done) return [];
      if (state.frontier === undefined) throw new Error('A stream of the page was never read.');
      return [edgeAfter(state.frontier, ascending)];
    });
    return edges.reduce<string | undefined>((earliest, edge) => (earliest === undefined || edgeBefore(edge, earliest, ascending) ? edge : earliest), undefined);
  }

  /**
   * Read (at once) every stream that could still hold an item before the first head: one that ran
   * dry and has not been read past that head. The units left are split evenly between them: the
   * page ends at the least-advanced stream, so one stream read far ahead of the others would only
   * be read again. False when a stream that still blocks could not be read, the budget spent.
   */
  public async fillBlocking(missing: number): Promise<boolean> {
    for (;;) {
      const blocking = this.blockingStreams();
      if (blocking.length === 0) return true;
      const units = this.read.budget.left / blocking.length;
      if (blocking.every((state) => state.frontier !== undefined) && this.query.itemsWithin(units) === 0) return false;
      await Promise.all(blocking.map((state) => this.fill(state, units, missing)));
    }
  }

  /** Streams that ran dry, are not read through, and have not been read past the first head in walk order. */
  private blockingStreams(): StreamState[] {
    const key = this.firstHead()?.key;
    const readPast = (frontier: string | undefined) => key !== undefined && frontier !== undefined && (this.read.ascending ? frontier >= key : frontier <= key);
    return this.states.filter((state) => state.buffer.length === 0 && !state.done && !readPast(state.frontier));
  }

  /**
   * Read the next chunks of a stream, within `units`, until it holds an item, is read through or
   * has spent them. A chunk is its share of the `missing` items (by its part of the expected
   * matches) scaled by how many of its reads are expected to be dropped, and one more: a Query is
   * billed at least half a unit whatever it returns, so learning the head that follows the share
   * costs a few bytes where another Query would cost a whole minimum. A stream that ran dry before
   * the page was full holds more than its share: it is read for all the page still needs. A
   * stream's first read is made whatever the budget: without it, the walk could not advance.
   */
  private async fill(state: StreamState, units: number, missing: number): Promise<void> {
    const { stream } = state;
    const { ascending, range, budget } = this.read;
    const candidates = Math.max(stream.expectedCandidates ?? 1, stream.expectedMatches ?? 1, 1);
    const share = state.refilled ? missing / Math.max(1, stream.expectedMatches ?? 1) : missing / this.expected;
    const wanted = Math.max(1, Math.ceil(share * candidates)) + 1;
    state.refilled = true;
    let allowance = units;
    while (state.buffer.length === 0 && !state.done) {
      const affordable = this.query.itemsWithin(Math.min(allowance, budget.left));
      const limit = Math.min(MAX_CHUNK, wanted, state.frontier === undefined ? Math.max(1, affordable) : affordable);
      if (limit === 0) return;
      const chunk = await this.query.chunk({ partition: stream.partition, range, ascending, limit, ...(stream.filter ? { filter: stream.filter } : {}), ...(state.start ? { start: state.start } : {}) }, budget);
      allowance -= chunk.units;
      state.buffer.push(...chunk.items);
      if (chunk.lastKey !== undefined) state.frontier = chunk.lastKey;
      if (chunk.next === undefined) state.done = true;
      else state.start = chunk.next;
    }
  }
}
