import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { addEntryDelta, type CounterDelta } from '../model/counters';
import { entryFromItem } from '../model/entry-item';
import type { MediaLogEntry } from '../model/schemas';

/**
 * The media log's stream records as changes of entries, and the counter deltas they make: what the
 * fold adds up before it writes anything.
 */

/** A DynamoDB Streams record as Lambda delivers it (and `sam local generate-event dynamodb` prints it). */
export interface StreamRecord {
  readonly eventName?: string;
  readonly dynamodb?: {
    readonly Keys?: Record<string, unknown>;
    readonly NewImage?: Record<string, unknown>;
    readonly OldImage?: Record<string, unknown>;
    readonly SequenceNumber?: string;
    readonly ApproximateCreationDateTime?: number;
  };
}

/** One change of one entry: its stream position, and the entry before and after (absent when there was none). */
export interface EntryChange {
  /** The record's sequence number, zero-padded to {@link SEQUENCE_DIGITS} so that text order is stream order. */
  readonly sequence: string;
  readonly before?: MediaLogEntry;
  readonly after?: MediaLogEntry;
}

/** Sequence numbers are 21 to 40 digits (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html). */
export const SEQUENCE_DIGITS = 40;

/** A sequence number padded so that DynamoDB's (and JavaScript's) text comparison orders it like the stream. */
export function paddedSequence(sequence: string): string {
  return sequence.padStart(SEQUENCE_DIGITS, '0');
}

/** Whether an item image is an entry (`ENTRY#<id>`); the stream's event source filter lets only those through. */
function entryImage(image: Record<string, unknown> | undefined): MediaLogEntry | undefined {
  if (image === undefined) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  return typeof item.pk === 'string' && item.pk.startsWith('ENTRY#') ? entryFromItem(item) : undefined;
}

/** The entry changes among `records` (records of other items, or without a sequence number, are skipped). */
export function entryChanges(records: readonly StreamRecord[]): EntryChange[] {
  const changes: EntryChange[] = [];
  for (const record of records) {
    const sequence = record.dynamodb?.SequenceNumber;
    if (sequence === undefined || !/^\d{1,40}$/.test(sequence)) continue;
    const before = entryImage(record.dynamodb?.OldImage);
    const after = entryImage(record.dynamodb?.NewImage);
    if (before === undefined && after === undefined) continue;
    changes.push({ sequence: paddedSequence(sequence), ...(before ? { before } : {}), ...(after ? { after } : {}) });
  }
  return changes;
}

/** What the changes of a batch add to one counter item, change by change (the fold may need to skip some). */
export interface CounterChanges {
  readonly key: CounterDelta['key'];
  /** One part per change that touches the item, in stream order: its sequence number and counts. */
  readonly parts: { readonly sequence: string; readonly counts: ReadonlyMap<string, number> }[];
}

/**
 * The counter deltas of `changes`, per counter item and change: a new entry adds one to each of its
 * counters (its total and its status combination), a change takes the old entry away and adds the
 * new one, a removal takes it away. A change that moved nothing a counter counts (a redelivered
 * request, a status that kept its combination) contributes nothing.
 */
export function counterChanges(changes: readonly EntryChange[]): Map<string, CounterChanges> {
  const byCounter = new Map<string, CounterChanges>();
  for (const change of changes) {
    const deltas = new Map<string, CounterDelta>();
    if (change.before) addEntryDelta(deltas, change.before, -1);
    if (change.after) addEntryDelta(deltas, change.after, 1);
    for (const [id, { key, counts }] of deltas) {
      const moved = new Map([...counts].filter(([, value]) => value !== 0));
      if (moved.size === 0) continue;
      const entry = byCounter.get(id) ?? { key, parts: [] };
      entry.parts.push({ sequence: change.sequence, counts: moved });
      byCounter.set(id, entry);
    }
  }
  return byCounter;
}

/** The sum of `parts`' counts, attribute by attribute, without the attributes that sum to zero. */
export function summed(parts: CounterChanges['parts']): Map<string, number> {
  const sum = new Map<string, number>();
  for (const { counts } of parts) for (const [attribute, value] of counts) sum.set(attribute, (sum.get(attribute) ?? 0) + value);
  return new Map([...sum].filter(([, value]) => value !== 0));
}
