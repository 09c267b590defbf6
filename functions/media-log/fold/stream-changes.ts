import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { countedEntryOfItem } from '../model/entry-item';
import type { CountedEntry } from '../model/counters';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { MEDIA_STATUSES, STATUS_FIELDS } from '../model/entry-fields';
import { ENTRY_KEY_PREFIX, SEND_KEY_PATTERN, STATUS_STORAGE } from '../model/keys';
import type { MediaLogEntry } from '../model/schemas';

/**
 * The media log's stream records as changes of entries: what the fold adds up before it writes
 * anything (counter-deltas.ts).
 */

/** A DynamoDB Streams record as Lambda delivers it (and `sam local generate-event dynamodb` prints it). */
export interface StreamRecord {
  readonly eventName?: string;
  /** Who made the change: DynamoDB itself for a TTL removal (see {@link isExpiry}). */
  readonly userIdentity?: { readonly type?: string; readonly principalId?: string };
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
  readonly before?: CountedEntry;
  readonly after?: CountedEntry;
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

/** A record the fold cannot read as a change of an entry, and why (logged, counted and reported, then skipped). */
export interface UnreadableRecord {
  readonly sequence?: string;
  readonly keys?: Record<string, unknown>;
  readonly reason: string;
}

/** What a batch's records are to the fold: the changes it folds, and the records it cannot read. */
export interface ReadRecords {
  readonly changes: EntryChange[];
  readonly unreadable: UnreadableRecord[];
}

const isStatus = (value: unknown): boolean => typeof value === 'string' && (MEDIA_STATUSES as readonly string[]).includes(value);

/**
 * The entry an image holds, undefined when it is no entry's image (the event source filter lets
 * only entries through), or the reason it cannot be read: every field a counter needs (send, user,
 * the four statuses) must be there, and well formed.
 */
function entryImage(image: Record<string, unknown> | undefined): CountedEntry | string | undefined {
  if (image === undefined) return undefined;
  let item: Record<string, unknown>;
  try {
    item = unmarshall(image as Record<string, AttributeValue>);
  } catch (error) {
    return `an image DynamoDB would not write: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (typeof item.pk !== 'string' || !item.pk.startsWith(ENTRY_KEY_PREFIX)) return undefined;
  const key = item[MEDIA_LOG_ATTRIBUTES.sendKey];
  if (typeof key !== 'string' || !SEND_KEY_PATTERN.test(key)) return `no send key (${MEDIA_LOG_ATTRIBUTES.sendKey}) in the image`;
  if (typeof item[MEDIA_LOG_ATTRIBUTES.userId] !== 'number') return `no user id (${MEDIA_LOG_ATTRIBUTES.userId}) in the image`;
  for (const field of STATUS_FIELDS) if (!isStatus(item[STATUS_STORAGE[field].attribute])) return `no status value for ${field} in the image`;
  return countedEntryOfItem(item);
}

/**
 * Whether a record is TTL's removal of an expired item: "Items that are deleted by the Time to Live
 * process after expiration have the following fields: Records[].userIdentity.type "Service",
 * Records[].userIdentity.principalId "dynamodb.amazonaws.com""
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_Record.html). The fold
 * leaves these out (DESIGN.md 7b, round five): an entry leaving the retention window is still a
 * request that was made, and its counters expire by their own TTL once the window leaves them.
 */
export function isExpiry(record: StreamRecord): boolean {
  return record.eventName === 'REMOVE' && record.userIdentity?.type === 'Service' && record.userIdentity.principalId === 'dynamodb.amazonaws.com';
}

/** Where a record is in its stream (its sequence number and keys, as far as it has them), for the report of one that cannot be read. */
export function whereIs(record: StreamRecord): Omit<UnreadableRecord, 'reason'> {
  const sequence = record.dynamodb?.SequenceNumber;
  const keys = record.dynamodb?.Keys;
  return { ...(sequence === undefined ? {} : { sequence }), ...(keys === undefined ? {} : { keys }) };
}

/** A record's sequence number, if it is one (1 to 40 digits); else what to report of it. */
export function sequenceOf(record: StreamRecord): string | UnreadableRecord {
  const sequence = record.dynamodb?.SequenceNumber;
  return sequence !== undefined && /^\d{1,40}$/.test(sequence) ? sequence : { ...whereIs(record), reason: 'no sequence number of 1 to 40 digits' };
}

/**
 * The entry changes among `records`, and the records that cannot be read as one (no sequence
 * number, an image without a field a counter needs). Records of other items are left out (the
 * event source filter lets none through), and so are TTL's removals ({@link isExpiry}).
 */
export function readEntryChanges(records: readonly StreamRecord[]): ReadRecords {
  const changes: EntryChange[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const record of records) {
    if (isExpiry(record)) continue;
    const sequence = sequenceOf(record);
    if (typeof sequence !== 'string') {
      unreadable.push(sequence);
      continue;
    }
    const where = whereIs(record);
    const before = entryImage(record.dynamodb?.OldImage);
    const after = entryImage(record.dynamodb?.NewImage);
    const reason = typeof before === 'string' ? `old image: ${before}` : typeof after === 'string' ? `new image: ${after}` : undefined;
    if (reason !== undefined) {
      unreadable.push({ ...where, reason });
      continue;
    }
    if (before === undefined && after === undefined) continue;
    changes.push({ sequence: sequenceKey(sequence), ...(before ? { before: before as CountedEntry } : {}), ...(after ? { after: after as CountedEntry } : {}) });
  }
  return { changes, unreadable };
}

/** The entry changes among `records` (those that cannot be read are left out: see {@link readEntryChanges}). */
export function entryChanges(records: readonly StreamRecord[]): EntryChange[] {
  return readEntryChanges(records).changes;
}
