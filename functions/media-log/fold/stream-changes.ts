import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { entryFromItem } from '../model/entry-item';
import { ENTRY_KEY_PREFIX } from '../model/keys';
import type { MediaLogEntry } from '../model/schemas';

/**
 * The media log's stream records as changes of entries: what the fold adds up before it writes
 * anything (counter-deltas.ts).
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
  /** The record's sequence number as a {@link sequenceKey}, so that text order is stream order. */
  readonly sequence: string;
  readonly before?: MediaLogEntry;
  readonly after?: MediaLogEntry;
}

/**
 * A sequence number as text that DynamoDB (and JavaScript) compare in stream order: its number of
 * digits (two digits), then the digits. Sequence numbers are 21 to 40 digits
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html):
 * a longer one is a larger one, and numbers of one length compare digit by digit. Shorter than
 * padding every number to 40 digits, and counter items carry one per stream shard.
 */
export function sequenceKey(sequence: string): string {
  const digits = sequence.replace(/^0+(?=\d)/, '');
  return `${String(digits.length).padStart(2, '0')}${digits}`;
}

/** The sequence number a {@link sequenceKey} holds (the key may be followed by more text). */
export function sequenceOfKey(key: string): string {
  return key.slice(2, 2 + Number(key.slice(0, 2)));
}

/** Whether an item image is an entry (`E#<id>`); the stream's event source filter lets only those through. */
function entryImage(image: Record<string, unknown> | undefined): MediaLogEntry | undefined {
  if (image === undefined) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  return typeof item.pk === 'string' && item.pk.startsWith(ENTRY_KEY_PREFIX) ? entryFromItem(item) : undefined;
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
    changes.push({ sequence: sequenceKey(sequence), ...(before ? { before } : {}), ...(after ? { after } : {}) });
  }
  return changes;
}

