import { createHash } from 'node:crypto';
import { COUNTER_SCOPES, mediaLogKeys, type CounterScope } from './keys';
import { STATUS_FIELDS, type MediaStatus, type StatusField } from './entry-fields';
import type { MediaLogEntry } from './schemas';
import { bucketOf, type TimeLevel } from './time-buckets';

/**
 * The counters: how many entries a scope has per time bucket, in total and per combination of the
 * four statuses. The fold (fold/count-fold.ts) adds each new entry to its counters and moves an
 * entry between combinations when a status changes, from the table's stream, so any sum of
 * counters is an exact total of every change older than the fold's lag.
 */

/**
 * Bucket sizes kept per scope, coarsest first. A range is summed from whole buckets, and only the
 * partial buckets at its two ends are counted entry by entry; a deep page skips entry by entry
 * inside one finest bucket. Every level is a counter item each fold batch writes, so each earns
 * its place by the numbers (CONTRIBUTING.md, "How the media log is written and counted"):
 * - the whole log keeps month, day and hour: an hour of a million entries a year is ~114 entries,
 *   few enough to count at a range's edges; its items are shared by every entry of a batch, so the
 *   levels cost the fold almost nothing.
 * - a user keeps months only: a user's items are its own, and at 1,000 active users a batch writes
 *   one item per user and level, which made user days half of the fold's writes. A user's partial
 *   month is counted in its own partitions (a thousand users share a million entries a year: ~80 a
 *   month), within the count budget.
 */
export const COUNTER_LEVELS: Readonly<Record<CounterScope['kind'], readonly TimeLevel[]>> = {
  all: ['month', 'day', 'hour'],
  user: ['month'],
  // A family is counted like a user (DESIGN.md 7b, round five): its partial month is counted in its own partitions.
  family: ['month'],
};

/**
 * A counter item (`COUNT#<scope>#<level>[#<parent bucket>]` / `<bucket>`, keys.ts) holds:
 * - `n`, the total, and one count per status combination met (`c` and a letter per status field);
 * - `v`, its version: every fold write adds one, and a recount checks it before correcting the item;
 * - `w_<digest of a stream shard id>`, per shard that wrote it within the retention, the watermark of
 *   the last change of that shard folded in (text, fold/count-fold.ts).
 * Only numbers are counts, and of the numbers every one but the version.
 */

/** Attribute holding a counter's total. */
export const TOTAL_ATTRIBUTE = 'n';

/** The attribute every fold write adds one to. */
export const VERSION_ATTRIBUTE = 'v';

/** Prefix of the watermark attributes. */
export const WATERMARK_PREFIX = 'w_';

/** 48 bits of a digest of a stream shard id, as text: ids are long, and names and keys count toward item size. */
export function shardDigest(shardId: string): string {
  return createHash('sha256').update(shardId).digest('base64url').slice(0, 8);
}

/** The attribute holding a shard's watermark: `w_` and the shard's {@link shardDigest}. */
export function watermarkAttribute(shardId: string): string {
  return `${WATERMARK_PREFIX}${shardDigest(shardId)}`;
}

/** Whether an attribute of a counter item is a count (the total or a status combination), not a watermark or the version. */
export function isCountAttribute(name: string, value: unknown): value is number {
  return typeof value === 'number' && name !== VERSION_ATTRIBUTE;
}

/** The counts of a counter item (its total and status combinations), without its version and watermarks. */
export function countsOfItem(item: Readonly<Record<string, unknown>>): Record<string, number> {
  return Object.fromEntries(Object.entries(item).filter((pair): pair is [string, number] => isCountAttribute(pair[0], pair[1])));
}

/** The counts of one time bucket, as a listing reads and sums them: `n` and one attribute per status combination. */
export interface CounterBucket {
  readonly bucket: string;
  readonly counts: Readonly<Record<string, number>>;
  /** False when the counts are only a lower bound (hidden entries taken away by a coarser counter). */
  readonly exact?: boolean;
}

/** Counts summed bucket by bucket, oldest bucket first. */
export function sumBuckets(lists: readonly (readonly CounterBucket[])[]): CounterBucket[] {
  const sums = new Map<string, Record<string, number>>();
  for (const list of lists) {
    for (const { bucket, counts } of list) {
      const sum = sums.get(bucket) ?? {};
      for (const [attribute, value] of Object.entries(counts)) sum[attribute] = (sum[attribute] ?? 0) + value;
      sums.set(bucket, sum);
    }
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([bucket, counts]) => ({ bucket, counts }));
}

const STATUS_CODES: Record<MediaStatus, string> = { pending: 'p', processing: 'r', success: 's', warning: 'w', error: 'e', skipped: 'k' };

/** Attribute counting one combination of statuses: `c` and one letter per status field, e.g. `csssw`. */
export function comboAttribute(entry: Pick<MediaLogEntry, StatusField>): string {
  return `c${STATUS_FIELDS.map((field) => STATUS_CODES[entry[field]]).join('')}`;
}

const COUNT_NAME = new RegExp(`^c[${Object.values(STATUS_CODES).join('')}]{${STATUS_FIELDS.length}}$`);

/** Whether `name` is one a count of a counter item may have: the total or a status combination (never a key, the version or a watermark). */
export function isCountName(name: string): boolean {
  return name === TOTAL_ATTRIBUTE || COUNT_NAME.test(name);
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

/** Entries of `counts` whose statuses satisfy `filter` (all of them for an empty filter). */
export function matchingCount(counts: Readonly<Record<string, number>>, filter: StatusFilter): number {
  if (Object.keys(filter).length === 0) return counts[TOTAL_ATTRIBUTE] ?? 0;
  const matches = comboMatcher(filter);
  return Object.entries(counts).reduce((sum, [attribute, value]) => (matches(attribute) ? sum + value : sum), 0);
}

/** The bucket sizes kept for a scope, coarsest first. */
export function counterLevelsOf(scope: CounterScope): readonly TimeLevel[] {
  return COUNTER_LEVELS[scope.kind];
}

/** The parent bucket of a `level` bucket containing `time` (null for the coarsest level). */
export function parentBucketOf(scope: CounterScope, level: TimeLevel, time: string): string | null {
  const levels = counterLevelsOf(scope);
  const parent = levels[levels.indexOf(level) - 1];
  return parent === undefined ? null : bucketOf(parent, time);
}

/** What the counters know of an entry: its send time, user and statuses, and the family it was written with (absent on an item written before families were kept). */
export type CountedEntry = MediaLogEntry & { readonly family?: number };

/**
 * The counter scopes one entry is counted in: the whole log, its user, and its family when the
 * entry is a sub user's (it carries a family other than its user). A top user's own entries are
 * counted once, under the user: a family's total is its top user's counters plus the family's
 * (listing-scope.ts), so a top user's entry costs the fold no item more than before families were
 * kept (DESIGN.md 7b: writes do not give way). A url keeps no counters: most urls are requested a few times, so url counters
 * would be two items of their own per entry for the fold to write, and a url listing counts its one
 * partition instead.
 */
export function entryScopes(entry: Pick<CountedEntry, 'user-id' | 'family'>): CounterScope[] {
  const scopes = [COUNTER_SCOPES.all, COUNTER_SCOPES.user(entry['user-id'])];
  return entry.family === undefined || entry.family === entry['user-id'] ? scopes : [...scopes, COUNTER_SCOPES.family(entry.family)];
}

/** Keys of every counter one entry is counted in: each level of each of its scopes. */
export function entryCounterKeys(entry: Pick<CountedEntry, 'send' | 'user-id' | 'family'>): { pk: string; sk: string }[] {
  return entryScopes(entry).flatMap((scope) =>
    counterLevelsOf(scope).map((level) => ({
      pk: mediaLogKeys.counterPartition(scope, level, parentBucketOf(scope, level, entry.send)),
      sk: mediaLogKeys.counterSortKey(bucketOf(level, entry.send)),
    })),
  );
}

/** One text per counter item key, for maps and sets of counter items. */
export function counterKeyId(key: { readonly pk: unknown; readonly sk: unknown }): string {
  return `${String(key.pk)}\u0000${String(key.sk)}`;
}
