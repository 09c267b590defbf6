import { MEDIA_LOG_ATTRIBUTES, type MediaLogPartitionKind } from '../shared/tables/media-log-table';
import { bucketEnd, bucketStart } from './media-log-keys';
import type { EntryFilter, MediaLogReader, ReadStats } from './media-log-reader';

/** One partition of a stream; `month` when the partition holds one month (lets the walk skip it outside the window). */
export interface StreamPartition {
  readonly value: string;
  readonly month?: string;
}

/**
 * A sorted stream of entries: the partitions of one listing index, walked one after the other in
 * send order (months newest first for a descending listing), each read with the same filter.
 */
export interface StreamSpec {
  readonly kind: MediaLogPartitionKind;
  /** Partitions in walk order, only those that can hold a match. */
  readonly partitions: readonly StreamPartition[];
  readonly filter?: EntryFilter;
  /** Matching entries the counters expect in this stream (its share of the page). */
  readonly expectedMatches: number;
  /** Entries it will read for them (more than the matches when a filter drops some). */
  readonly expectedCandidates: number;
}

/** Inclusive send-key bounds of a read (either open). */
export interface KeyWindow {
  readonly lo?: string;
  readonly hi?: string;
}

/** Largest Limit of one Query: beyond it a page is split anyway (1 MB per response). */
const MAX_CHUNK = 1000;

interface StreamState {
  readonly spec: StreamSpec;
  index: number;
  start?: Record<string, unknown>;
  readonly buffer: Record<string, unknown>[];
  done: boolean;
}

function keyOf(item: Record<string, unknown>): string {
  return item[MEDIA_LOG_ATTRIBUTES.sendKey] as string;
}

/** Whether a month partition can hold keys inside the window. */
function monthInWindow(month: string | undefined, window: KeyWindow): boolean {
  if (month === undefined) return true;
  const start = bucketStart(month);
  const end = bucketEnd('month', month);
  return (window.hi === undefined || window.hi >= start) && (window.lo === undefined || window.lo < end);
}

/** Merged page of several streams. */
export interface MergedEntries {
  readonly items: Record<string, unknown>[];
  /** Send key of the last item taken (skipped or returned): the next page starts after it. */
  readonly last?: string;
}

/** How one merge reads: the same window, order and statistics for every stream. */
interface MergeRead {
  readonly reader: MediaLogReader;
  readonly window: KeyWindow;
  readonly ascending: boolean;
  /** Matching entries expected from all streams together. */
  readonly expected: number;
  readonly stats: ReadStats;
}

/**
 * Read the next chunk of a stream whose buffer ran dry: its share of the `need` entries still to
 * take, scaled up by how many of its reads the filter drops. Moves on to the next partition when
 * one is exhausted.
 */
async function fill(state: StreamState, need: number, read: MergeRead): Promise<void> {
  const candidates = Math.max(state.spec.expectedCandidates, state.spec.expectedMatches, 1);
  const limit = Math.min(MAX_CHUNK, Math.max(1, Math.round((need * candidates) / read.expected)));
  while (state.buffer.length === 0 && !state.done) {
    const partition = state.spec.partitions[state.index] as StreamPartition;
    if (monthInWindow(partition.month, read.window)) {
      const page = await read.reader.page(
        { kind: state.spec.kind, partition: partition.value, ...read.window, filter: state.spec.filter },
        { ascending: read.ascending, limit, start: state.start },
        read.stats,
      );
      state.buffer.push(...page.items);
      state.start = page.next;
    }
    if (state.start === undefined) {
      state.index += 1;
      state.done = state.index >= state.spec.partitions.length;
    }
  }
}

/** The stream whose buffered head comes first in sort order, if any has one. */
function firstHead(states: readonly StreamState[], ascending: boolean): StreamState | undefined {
  let best: StreamState | undefined;
  let bestKey: string | undefined;
  for (const state of states) {
    const head = state.buffer[0];
    if (head === undefined) continue;
    const key = keyOf(head);
    if (bestKey === undefined || (ascending ? key < bestKey : key > bestKey)) {
      best = state;
      bestKey = key;
    }
  }
  return best;
}

/**
 * Read `take` entries after skipping `skip`, from the merge of `streams` in send order. Each
 * stream is read lazily in chunks sized by its share of the expected matches and by how many of
 * its reads match, so a page reads about as many entries as it takes, however many streams merge
 * (plus, inevitably, the one head per stream that lost the last comparison).
 */
export async function readMerged(
  reader: MediaLogReader,
  streams: readonly StreamSpec[],
  window: KeyWindow,
  options: { readonly ascending: boolean; readonly skip: number; readonly take: number },
  stats: ReadStats,
): Promise<MergedEntries> {
  const items: Record<string, unknown>[] = [];
  if (options.take <= 0 || (window.lo !== undefined && window.hi !== undefined && window.lo > window.hi)) return { items };
  const states: StreamState[] = streams.map((spec) => ({ spec, index: 0, buffer: [], done: spec.partitions.length === 0 }));
  const expected = Math.max(1, streams.reduce((sum, spec) => sum + spec.expectedMatches, 0));
  const read: MergeRead = { reader, window, ascending: options.ascending, expected, stats };
  const goal = options.skip + options.take;
  let taken = 0;
  let last: string | undefined;
  while (taken < goal) {
    const need = goal - taken;
    await Promise.all(states.filter((state) => state.buffer.length === 0 && !state.done).map((state) => fill(state, need, read)));
    const best = firstHead(states, options.ascending);
    if (best === undefined) break;
    const item = best.buffer.shift() as Record<string, unknown>;
    last = keyOf(item);
    taken += 1;
    if (taken > options.skip) items.push(item);
  }
  return { items, last };
}
