import { bucketOf, type TimeLevel } from './media-log-keys';
import { STATUS_FIELDS, type MediaLogEntry, type MediaStatus, type StatusField } from './schemas';

/**
 * Keys and attributes of the counters: how many entries a scope has per time bucket, in total and
 * per combination of the four statuses. Every entry adds one to each of its counters in the same
 * transaction that stores it (media-log-writer.ts), so any sum of counters is an exact total.
 */

/** Whose entries a counter counts: everyone's, or one user's. */
export type CounterScope = 'ALL' | `USER#${number}`;

/** The counter scope of one user. */
export function userScope(userId: number): CounterScope {
  return `USER#${userId}`;
}

/**
 * Bucket sizes kept per scope, coarsest first. A range is summed from whole buckets, and only the
 * partial buckets at its two ends are counted entry by entry; a deep page skips entry by entry
 * inside one finest bucket. So the finest level bounds that work: ten minutes for the whole log
 * (~20 entries at a million a year), a day for one user (whose entries per day are few).
 */
export const COUNTER_LEVELS: Readonly<Record<'all' | 'user', readonly TimeLevel[]>> = {
  all: ['month', 'day', 'hour', 'tenMinutes'],
  user: ['month', 'day'],
};

/**
 * Items each `ALL` counter is spread over. Every write touches the current month's, day's, hour's
 * and ten minutes' `ALL` counters; concurrent transactions on one item conflict, so writes pick a shard by
 * entry id and reads sum the shards (a range Query returns them together).
 */
export const ALL_COUNTER_SHARDS = 4;

/** Attribute holding a counter's total. */
export const TOTAL_ATTRIBUTE = 'n';

const STATUS_CODES: Record<MediaStatus, string> = { pending: 'p', processing: 'r', success: 's', warning: 'w', error: 'e', skipped: 'k' };

/** Attribute counting one combination of statuses: `c` and one letter per status field, e.g. `csssw`. */
export function comboAttribute(entry: Pick<MediaLogEntry, StatusField>): string {
  return `c${STATUS_FIELDS.map((field) => STATUS_CODES[entry[field]]).join('')}`;
}

/** Status values a listing is filtered on, per field; an absent field is not filtered. */
export type StatusFilter = Partial<Record<StatusField, readonly MediaStatus[]>>;

/** Whether a combination attribute satisfies `filter` (every filtered field takes one of its values). */
export function comboMatcher(filter: StatusFilter): (attribute: string) => boolean {
  const allowed = STATUS_FIELDS.map((field) => {
    const values = filter[field];
    return values === undefined ? null : new Set(values.map((value) => STATUS_CODES[value]));
  });
  return (attribute) => attribute.length === STATUS_FIELDS.length + 1 && attribute.startsWith('c') &&
    allowed.every((codes, index) => codes === null || codes.has(attribute.charAt(index + 1)));
}

/** The bucket sizes kept for a scope, coarsest first. */
export function counterLevelsOf(scope: CounterScope): readonly TimeLevel[] {
  return scope === 'ALL' ? COUNTER_LEVELS.all : COUNTER_LEVELS.user;
}

/**
 * Partition of the counters of `level` inside the parent bucket (the month of a day, the day of an
 * hour); months have a single partition per scope.
 */
export function counterPartition(scope: CounterScope, level: TimeLevel, parentBucket: string | null): string {
  return parentBucket === null ? `COUNT#${scope}#${level}` : `COUNT#${scope}#${level}#${parentBucket}`;
}

/** The parent bucket of a `level` bucket containing `time` (null for the coarsest level). */
export function parentBucketOf(scope: CounterScope, level: TimeLevel, time: string): string | null {
  const levels = counterLevelsOf(scope);
  const index = levels.indexOf(level);
  const parent = levels[index - 1];
  return parent === undefined ? null : bucketOf(parent, time);
}

/** Sort key of one counter item: the bucket and the shard. */
export function counterSortKey(bucket: string, shard: number): string {
  return `${bucket}#${shard}`;
}

/** Inclusive sort-key bounds covering every shard of the buckets from `first` to `last` (either open). */
export function counterSortKeyBounds(first?: string, last?: string): { lo?: string; hi?: string } {
  return { lo: first === undefined ? undefined : `${first}#`, hi: last === undefined ? undefined : `${last}#~` };
}

/** The bucket a counter item's sort key names. */
export function bucketOfCounterKey(sortKey: string): string {
  return sortKey.slice(0, sortKey.indexOf('#'));
}

function shardOf(scope: CounterScope, entryId: string): number {
  return scope === 'ALL' ? Number.parseInt(entryId.slice(-2), 16) % ALL_COUNTER_SHARDS : 0;
}

/** Keys of every counter one entry adds to: each level of `ALL` and of its user. */
export function entryCounterKeys(entry: Pick<MediaLogEntry, 'id' | 'send' | 'user-id'>): { pk: string; sk: string }[] {
  return (['ALL', userScope(entry['user-id'])] as CounterScope[]).flatMap((scope) =>
    counterLevelsOf(scope).map((level) => ({
      pk: counterPartition(scope, level, parentBucketOf(scope, level, entry.send)),
      sk: counterSortKey(bucketOf(level, entry.send), shardOf(scope, entry.id)),
    })),
  );
}
