import { counterDeltas, counterKeyId, entryCounterKeys } from '../counters';
import type { MediaLogEntry } from '../schemas';

/**
 * How the writer groups new entries into transactions: as many entries as fit one
 * TransactWriteItems (100 items: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html),
 * counting each entry's item and each counter item the group touches once, since the group's
 * additions to one counter are summed into one update.
 */

/** Most items of one TransactWriteItems request. */
export const MAX_TRANSACTION_ITEMS = 100;

/**
 * Lanes entries are written in at once. Entries are assigned to lanes by user, so concurrent
 * transactions never touch the same user's counters; each lane writes the whole log's counters on
 * a shard of its own (counters.ts keeps four), so they never touch the same counter item either.
 */
export const WRITE_LANES = 4;

/** The lane of an entry: by user, so one user's counters are written by one lane only. */
export function laneOf(entry: Pick<MediaLogEntry, 'user-id'>, lanes: number): number {
  return entry['user-id'] % lanes;
}

/**
 * Split `entries` (of one lane) into transaction-sized chunks, in send order so that neighbours
 * share the whole log's time buckets. `shard` is the lane's counter shard.
 */
export function planChunks(entries: readonly MediaLogEntry[], shard: number, maxItems = MAX_TRANSACTION_ITEMS): MediaLogEntry[][] {
  const ordered = [...entries].sort((a, b) => (a.send < b.send ? -1 : a.send > b.send ? 1 : 0));
  const chunks: MediaLogEntry[][] = [];
  let chunk: MediaLogEntry[] = [];
  let counters = new Set<string>();
  for (const entry of ordered) {
    const keys = entryCounterKeys(entry, shard).map(counterKeyId);
    const added = keys.filter((key) => !counters.has(key)).length;
    if (chunk.length > 0 && chunk.length + 1 + counters.size + added > maxItems) {
      chunks.push(chunk);
      chunk = [];
      counters = new Set();
    }
    chunk.push(entry);
    for (const key of keys) counters.add(key);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** One lane's transactions: its counter shard and its chunks, in the order they are written. */
export interface LanePlan {
  readonly shard: number;
  readonly chunks: MediaLogEntry[][];
}

/** Split new entries into {@link WRITE_LANES} lanes by user, each planned into transaction-sized chunks. */
export function planLanes(entries: readonly MediaLogEntry[]): LanePlan[] {
  const lanes: MediaLogEntry[][] = Array.from({ length: WRITE_LANES }, () => []);
  for (const entry of entries) lanes[laneOf(entry, WRITE_LANES)]?.push(entry);
  return lanes.map((lane, shard) => ({ shard, chunks: planChunks(lane, shard) }));
}

/** The counter updates of one chunk, summed per counter item. */
export function chunkCounters(chunk: readonly MediaLogEntry[], shard: number) {
  return [...counterDeltas(chunk, shard).values()];
}
