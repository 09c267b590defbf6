import { defineConfig } from '../../shared/config/define-config';
import type { KeyRange } from '../../shared/listing/key-range';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { bucketEnd, levelOfBucket, TIME_MAX } from './time-buckets';

/**
 * How long the media log keeps its entries (DESIGN.md 7b, round five): the operator's choice, in
 * days, 0 (the default) for ever. Entries and counter items carry an expiry that DynamoDB's TTL
 * acts on; TTL deletes lazily, "typically within a few days" of the expiry, and an expired item
 * not yet deleted still shows up in reads, queries and scans
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html), so
 * every listing and total starts no earlier than the window's start, whatever TTL has removed.
 */

/** Variables of the media log's retention. */
export const MEDIA_LOG_ENV = {
  /** Days an entry is kept (0: for ever); the stack sets it from `mediaLogRetentionDays`. */
  retentionDays: 'MEDIA_LOG_RETENTION_DAYS',
} as const;

/** Longest retention a setting may ask for: ten years (a longer one is kept for ever, 0). */
export const MAX_RETENTION_DAYS = 3653;

const DAY_MS = 86_400_000;

/** The media log's retention section: the days kept, 0 for ever. */
export const mediaLogConfig = /* @__PURE__ */ defineConfig('media-log', (env) => ({
  retentionDays: env.integer(MEDIA_LOG_ENV.retentionDays, 0, { min: 0, max: MAX_RETENTION_DAYS }),
}));

/** A retention window: what it keeps, and when what it keeps expires. */
export class Retention {
  /** Keep everything (the default). */
  public static readonly forever = new Retention(0);

  /** The configured retention (`MEDIA_LOG_RETENTION_DAYS`). */
  public static configured(): Retention {
    const { retentionDays } = mediaLogConfig();
    return retentionDays === 0 ? Retention.forever : new Retention(retentionDays);
  }

  /** @param days days kept; 0 keeps everything. */
  public constructor(public readonly days: number) {}

  /** The first send time a listing shows at `nowMs` (ISO-8601, ms), undefined when everything is kept. */
  public floor(nowMs: number): string | undefined {
    return this.days === 0 ? undefined : new Date(nowMs - this.days * DAY_MS).toISOString();
  }

  /**
   * `range` starting no earlier than the window's start at `nowMs`. The result may be empty
   * (`from` at or past `to`): a range wholly before the window holds nothing.
   */
  public clamp(range: KeyRange, nowMs: number): KeyRange {
    const floor = this.floor(nowMs);
    if (floor === undefined || (range.from !== undefined && range.from >= floor)) return range;
    return { ...range, from: floor };
  }

  /**
   * The TTL attribute's value (epoch seconds) of an item whose last entry is of time `time`
   * (ISO-8601), undefined when everything is kept: the time the window leaves it behind.
   */
  public expiresAt(time: string): number | undefined {
    return this.days === 0 ? undefined : Math.ceil((Date.parse(time) + this.days * DAY_MS) / 1000);
  }

  /**
   * The TTL attribute's value of a counter item of `bucket` (a month, day or hour): the window
   * leaves it behind once it leaves the bucket's last instant; undefined when everything is kept.
   */
  public counterExpiresAt(bucket: string): number | undefined {
    if (this.days === 0) return undefined;
    const end = bucketEnd(levelOfBucket(bucket), bucket);
    return end === TIME_MAX ? undefined : this.expiresAt(end);
  }

  /**
   * The `SET` of a counter item's expiry for an update of the item of `bucket` (the fold's writes,
   * the recount's corrections), with its names and values; undefined when everything is kept.
   */
  public counterExpirySet(bucket: string): { readonly clause: string; readonly names: Record<string, string>; readonly values: Record<string, number> } | undefined {
    const expiresAt = this.counterExpiresAt(bucket);
    if (expiresAt === undefined) return undefined;
    return { clause: '#expiresAt = :expiresAt', names: { '#expiresAt': MEDIA_LOG_ATTRIBUTES.expiresAt }, values: { ':expiresAt': expiresAt } };
  }
}
