import type { IndexQuery, ListedItem, Resolver } from './index-query';
import { edgeAfter, isEmptyRange, type KeyRange } from './key-range';
import { MergedStreams, type SortedStream, type StreamState } from './merged-streams';
import type { ReadBudget } from './read-budget';

/**
 * The one listing engine: a page of the merge of sorted streams of index partitions. Every
 * listing of the service (users, the media log) reads through it, so reading about what a page
 * returns, resuming where a walk stands and the read budget are implemented once.
 *
 * What a walk promises (DESIGN.md section 4): from its first page to its last, every item that
 * matches throughout is returned exactly once, whatever the budget and however many streams merge;
 * a page holds `take` items unless it is the last or the budget ended it; no item twice in a page.
 */

/** What to read. */
export interface MergeRequest<T> {
  readonly streams: readonly SortedStream[];
  /** What remains of the listing's range where the walk stands. */
  readonly range: KeyRange;
  readonly ascending: boolean;
  /** Matching items to pass over before the page (offset paging within a located stretch). */
  readonly skip: number;
  readonly take: number;
  readonly budget: ReadBudget;
  /** Each candidate's value, or null when it does not belong after all: items are then taken in runs, each run resolved at once. */
  readonly resolve?: Resolver<T>;
  /**
   * Whether the resolver may leave out a candidate its index item passed (a check no index shows):
   * candidates passed over before the page are then resolved too. Otherwise they are passed over
   * unread, as their index items say, and only the page's own are resolved.
   */
  readonly resolveSkipped?: boolean;
}

/** A page of the merge. */
export interface MergedPage<T> {
  readonly values: T[];
  /**
   * The edge the next page resumes at (key-range.ts): every key before it in walk order has been
   * returned, passed over or left out. Absent when nothing more can match.
   */
  readonly edge?: string;
}

/** Most candidates resolved at once: what one BatchGetItem reads. */
const MAX_RUN = 100;

/** A popped head, not yet taken or left out, with the budget set aside to resolve it. */
interface Candidate {
  readonly state: StreamState;
  readonly item: ListedItem;
  readonly key: string;
  readonly release: (actual: number) => void;
}

/**
 * Read a page: skip `skip` matching items, take `take`, from the merge of `streams` in sort order.
 * Each stream is read lazily in chunks sized by its share of the items still missing, so a page
 * reads about what it returns, however many streams merge (plus the head after the page in each).
 * With a resolver, the next run of candidates in merge order (as many as the page still needs,
 * scaled by the candidates expected per match) is resolved at once; a candidate left out is
 * replaced by reading on, and those the page turns out not to need go back to their streams.
 *
 * When the budget runs out, the page ends at the least-advanced point of the walk: the earliest of
 * every stream's unread head and of the frontier of every stream not read through. Whatever lies
 * before it has been returned or left out; the next page resumes there. So that a walk always
 * advances, a page reads each stream once and resolves one candidate even past the budget.
 */
export async function readMergedPage<T = ListedItem>(query: IndexQuery, request: MergeRequest<T>): Promise<MergedPage<T>> {
  if (request.take <= 0 || isEmptyRange(request.range)) return { values: [] };
  return new PageMerge(query, request).read();
}

class PageMerge<T> {
  private readonly streams: MergedStreams;
  private readonly goal: number;
  private readonly values: T[] = [];
  private taken = 0;
  private resolvedAny = false;
  private lastTaken?: string;
  private lastPopped?: string;

  public constructor(
    query: IndexQuery,
    private readonly request: MergeRequest<T>,
  ) {
    this.streams = new MergedStreams(query, request);
    this.goal = request.skip + request.take;
  }

  public async read(): Promise<MergedPage<T>> {
    while (this.taken < this.goal) {
      const run = await this.nextRun();
      if (run.length === 0) break;
      await this.settle(run);
    }
    return this.page();
  }

  /** The next candidates in merge order: each popped once no stream can hold an item before it. */
  private async nextRun(): Promise<Candidate[]> {
    const { resolve, budget } = this.request;
    const run: Candidate[] = [];
    while (run.length < this.runLength()) {
      if (!(await this.streams.fillBlocking(this.goal - this.taken))) break;
      const head = this.streams.firstHead();
      if (head === undefined) break;
      const { state, key } = head;
      // The same item from a second partition (an entry whose status moved from one to the other): once per page.
      if (key === this.lastPopped) {
        state.buffer.shift();
        continue;
      }
      const passedUnread = run.length === 0 && this.taken < this.request.skip && this.request.resolveSkipped !== true;
      // The first candidate is resolved whatever the budget: without it, the walk could not advance.
      if (resolve !== undefined && !passedUnread && !budget.allows(resolve.unitsPerItem) && (this.resolvedAny || run.length > 0)) break;
      const item = state.buffer.shift() as ListedItem;
      this.lastPopped = key;
      if (passedUnread) this.take(key);
      else run.push({ state, item, key, release: resolve === undefined ? () => undefined : budget.reserve(resolve.unitsPerItem) });
    }
    return run;
  }

  /** Candidates to pop for the next run: as many as the page still needs, scaled by those expected to be left out. */
  private runLength(): number {
    const missing = this.goal - this.taken;
    return this.request.resolve === undefined ? missing : Math.min(MAX_RUN, Math.ceil(missing * this.streams.candidatesPerMatch));
  }

  /** Take or leave out a run of candidates, in order; what the page does not need goes back to its stream. */
  private async settle(run: readonly Candidate[]): Promise<void> {
    for (const candidate of run) candidate.release(0);
    const { resolve } = this.request;
    const values = resolve === undefined ? run.map((candidate) => candidate.item as T) : await resolve.values(run.map((candidate) => candidate.item), this.request.budget);
    this.resolvedAny = true;
    for (let position = 0; position < run.length; position += 1) {
      if (this.taken >= this.goal) {
        for (let back = run.length - 1; back >= position; back -= 1) (run[back] as Candidate).state.buffer.unshift((run[back] as Candidate).item);
        return;
      }
      const value = values[position];
      if (value === null || value === undefined) continue;
      this.take((run[position] as Candidate).key, value);
    }
  }

  /** Count a candidate as taken: in the page once the items to pass over are passed. */
  private take(key: string, value?: T): void {
    this.taken += 1;
    this.lastTaken = key;
    if (this.taken > this.request.skip && value !== undefined) this.values.push(value);
  }

  /** The page, and the edge the walk resumes at: after its last item when full, else where the least-advanced stream stands. */
  private page(): MergedPage<T> {
    if (this.taken >= this.goal) {
      return { values: this.values, ...(this.streams.more() && this.lastTaken !== undefined ? { edge: edgeAfter(this.lastTaken, this.request.ascending) } : {}) };
    }
    // Not full: the streams are read through, or the budget ended the page where the least-advanced one stands.
    const edge = this.streams.earliestEdge();
    return { values: this.values, ...(edge === undefined ? {} : { edge }) };
  }
}
