import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { counterKeyId, isCountName, shardDigest } from '../model/counters';
import { COUNTER_KEY_PREFIX, DELTA_KEY_PREFIX, FOLD_MARK_KEY_PREFIX } from '../model/keys';
import { counterChanges, summed, type CounterChanges } from './counter-deltas';
import { sequenceKey, sequenceOf, whereIs, type EntryChange, type StreamRecord, type UnreadableRecord } from './stream-changes';

/**
 * The fold in two stages (DESIGN.md 7b, round five) as plans, with no I/O: what the first stage
 * writes for a batch of one media-log stream shard (delta-fold.ts sends it), and what the second
 * stage reads back from the deltas' stream (apply-media-log-deltas.ts hands it to count-fold.ts).
 * The media log's stream has one shard per table partition, hundreds as the table grows; the
 * deltas' table is small and its stream has a few. Counter items hold a watermark per shard that
 * writes them, so only the second stage writes them: their size and write rate follow the deltas'
 * few shards, not the media log's many.
 */

/** Attributes of the deltas table's items (functions/shared/tables/media-log-table.ts). */
export const DELTA_ATTRIBUTES = {
  /** A delta item's deltas: a list of {@link StoredDelta}. */
  deltas: 'd',
  /** A first-stage watermark: the sequence key of the shard's last record folded into deltas, `@` and when (count-fold.ts's format). */
  watermark: 'w',
} as const;

/** What a batch adds to one counter item, as a delta item stores it: the counter's key and its counts (negative to take away). */
export interface StoredDelta {
  readonly p: string;
  readonly s: string;
  readonly c: Readonly<Record<string, number>>;
}

/**
 * Largest delta item, in bytes as {@link deltaBytes} counts them: well under DynamoDB's 400 KB item
 * limit (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-items).
 * Each item of a batch has a partition key of its own, and one written in a transaction costs two
 * write units per KB: 64 KB keeps a partition key within 500 write units a second (DESIGN.md 9)
 * though a shard cuts a batch every 2 s and the part's last delta item is deleted in the same
 * second, where one item of 300 KB took 600 (`key-heat`: a shard's batch at 18 shards holds ~300 KB
 * of deltas).
 */
export const MAX_DELTA_ITEM_BYTES = 64_000;

/**
 * Largest first-stage transaction, in the same bytes: `TransactWriteItems` takes at most 100 items
 * and 4 MB (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#limits-transaction);
 * 3 MB of deltas are at most 47 items beside the watermark. A batch of 10,000 records holds some
 * 1.5 MB of deltas at most (each record moves at most 5 counter items); a larger one is cut into
 * consecutive transactions, each with its own watermark.
 */
export const MAX_TRANSACTION_BYTES = 3_000_000;

/** The sizes the first stage cuts its writes by (tests pass smaller ones to see the cuts on few records). */
export interface DeltaLimits {
  readonly itemBytes: number;
  readonly transactionBytes: number;
}

/** The limits of DynamoDB, with the margins above. */
export const DELTA_LIMITS: DeltaLimits = { itemBytes: MAX_DELTA_ITEM_BYTES, transactionBytes: MAX_TRANSACTION_BYTES };

/**
 * An upper bound of a stored delta's size: DynamoDB counts the lengths of names and text, up to 21
 * bytes per number, and a few bytes per list or map element
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 */
export function deltaBytes(delta: StoredDelta): number {
  let bytes = 16 + delta.p.length + delta.s.length;
  for (const name of Object.keys(delta.c)) bytes += name.length + 24;
  return bytes;
}

/** The keys of the first stage's items for media-log stream shard `shardId`. */
export const deltaKeys = {
  /**
   * One delta item: the shard and the item's part of its transaction (each part a partition key of
   * its own, see {@link MAX_DELTA_ITEM_BYTES}), then the sequence key of the last record it holds.
   */
  delta: (shardId: string, lastSequence: string, part: number) => ({ pk: `${DELTA_KEY_PREFIX}${shardDigest(shardId)}#${String(part).padStart(2, '0')}`, sk: lastSequence }),
  /** The shard's watermark item. */
  mark: (shardId: string) => ({ pk: `${FOLD_MARK_KEY_PREFIX}${shardDigest(shardId)}`, sk: '-' }),
} as const;

/** One first-stage transaction: the summed deltas of consecutive records `first`..`last` of a shard, cut into items, written with the shard's watermark. */
export interface DeltaWrite {
  readonly first: string;
  readonly last: string;
  /** The delta items, each a list of deltas; empty when the records moved no counter (the watermark still moves). */
  readonly items: readonly (readonly StoredDelta[])[];
}

/** The deltas of `changes` summed per counter item, without those that cancel out. */
export function summedDeltas(changes: readonly EntryChange[]): StoredDelta[] {
  return [...counterChanges(changes).values()]
    .map(({ key, parts }) => ({ p: key.pk, s: key.sk, c: Object.fromEntries(summed(parts)) }))
    .filter((delta) => Object.keys(delta.c).length > 0);
}

/** `deltas` in items of at most `itemBytes`. */
function packed(deltas: readonly StoredDelta[], itemBytes: number): StoredDelta[][] {
  const items: StoredDelta[][] = [];
  let item: StoredDelta[] = [];
  let bytes = 0;
  for (const delta of deltas) {
    const size = deltaBytes(delta);
    if (item.length > 0 && bytes + size > itemBytes) {
      items.push(item);
      item = [];
      bytes = 0;
    }
    item.push(delta);
    bytes += size;
  }
  if (item.length > 0) items.push(item);
  return items;
}

/**
 * The first stage's transactions for `changes` (one shard's, in stream order): consecutive runs of
 * changes whose deltas, unsummed (an upper bound), fit {@link MAX_TRANSACTION_BYTES}, each summed
 * per counter item and cut into delta items. A batch of a shard is one run unless it is huge.
 */
export function deltaWrites(changes: readonly EntryChange[], limits: DeltaLimits = DELTA_LIMITS): DeltaWrite[] {
  const runs: EntryChange[][] = [];
  let run: EntryChange[] = [];
  let bytes = 0;
  for (const change of changes) {
    let size = 0;
    for (const { key, parts } of counterChanges([change]).values()) for (const part of parts) size += deltaBytes({ p: key.pk, s: key.sk, c: Object.fromEntries(part.counts) });
    if (run.length > 0 && bytes + size > limits.transactionBytes) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(change);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs.map((changesOfRun) => ({
    first: (changesOfRun[0] as EntryChange).sequence,
    last: (changesOfRun[changesOfRun.length - 1] as EntryChange).sequence,
    items: packed(summedDeltas(changesOfRun), limits.itemBytes),
  }));
}

/** What a batch of the deltas' stream is to the second stage. */
export interface DeltaBatch {
  /** Per counter item, one part per delta record that moves it, in stream order. */
  readonly counters: Map<string, CounterChanges>;
  /** The keys of the delta items read: deleted once their counters are written. */
  readonly applied: { readonly pk: string; readonly sk: string }[];
  /** Records that are no delta the first stage writes: reported and skipped. */
  readonly unreadable: UnreadableRecord[];
}

/** The deltas an image holds, or why it holds none a counter write may take. */
export function deltasOfImage(item: Record<string, unknown>): StoredDelta[] | string {
  const deltas = item[DELTA_ATTRIBUTES.deltas];
  if (!Array.isArray(deltas)) return `no list of deltas (${DELTA_ATTRIBUTES.deltas})`;
  for (const delta of deltas as unknown[]) {
    const { p, s, c } = (delta ?? {}) as Partial<Record<'p' | 's' | 'c', unknown>>;
    if (typeof p !== 'string' || !p.startsWith(COUNTER_KEY_PREFIX) || typeof s !== 'string' || s === '') return 'a delta without a counter key';
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return `a delta of ${p} ${s} without counts`;
    for (const [name, value] of Object.entries(c)) {
      if (!isCountName(name) || !Number.isSafeInteger(value)) return `a delta of ${p} ${s} with a count that is none (${name})`;
    }
  }
  return deltas as StoredDelta[];
}

/**
 * The counter changes of a batch of the deltas' stream: each new delta item (an INSERT; removals,
 * the second stage's own deletes and TTL's, are left out) gives each counter it moves one part at
 * the record's sequence key. A record that is no well-formed delta is unreadable.
 */
export function readDeltaRecords(records: readonly StreamRecord[]): DeltaBatch {
  const counters = new Map<string, CounterChanges>();
  const applied: DeltaBatch['applied'] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const record of records) {
    if (record.eventName !== 'INSERT') continue;
    const sequence = sequenceOf(record);
    if (typeof sequence !== 'string') {
      unreadable.push(sequence);
      continue;
    }
    const where = whereIs(record);
    let item: Record<string, unknown>;
    try {
      item = unmarshall((record.dynamodb?.NewImage ?? {}) as Record<string, AttributeValue>);
    } catch (error) {
      unreadable.push({ ...where, reason: `an image DynamoDB would not write: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    if (typeof item.pk !== 'string' || !item.pk.startsWith(DELTA_KEY_PREFIX) || typeof item.sk !== 'string') {
      unreadable.push({ ...where, reason: 'no delta item in the new image' });
      continue;
    }
    const deltas = deltasOfImage(item);
    if (typeof deltas === 'string') {
      unreadable.push({ ...where, reason: deltas });
      continue;
    }
    const at = sequenceKey(sequence);
    for (const { p, s, c } of deltas) {
      const id = counterKeyId({ pk: p, sk: s });
      const counter = counters.get(id) ?? { key: { pk: p, sk: s }, parts: [] };
      counter.parts.push({ sequence: at, counts: new Map(Object.entries(c)) });
      counters.set(id, counter);
    }
    applied.push({ pk: item.pk, sk: item.sk });
  }
  return { counters, applied, unreadable };
}
