/**
 * The fields of a media log entry (api-spec.md section 2, DESIGN.md section 7) as plain values: the
 * status values, the status fields and the limits that the keys, the counters, the listing and the
 * schemas share, without the schemas themselves.
 */

/** Values of every status field of an entry. */
export const MEDIA_STATUSES = ['pending', 'processing', 'success', 'warning', 'error', 'skipped'] as const;
/** One status value. */
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** The four status fields of an entry, in the order the counters encode them. */
export const STATUS_FIELDS = ['status', 'status-ffscan', 'status-mediainfo', 'status-scan-report'] as const;
/** One status field. */
export type StatusField = (typeof STATUS_FIELDS)[number];

/**
 * Status values with index items (sparse status indexes, DESIGN.md 7b round four). `success` is the
 * final value of nearly every entry: a filter on it reads the time-ordered listing (nearly every
 * entry matches) and its totals come from the counters, so an index item for it would be a write
 * per entry that no read needs. The in-flight values (`pending`, `processing`) find stuck requests,
 * the rare final values (`warning`, `error`, `skipped`) find failures: both are needles in the log.
 */
export const INDEXED_STATUSES = ['pending', 'processing', 'warning', 'error', 'skipped'] as const satisfies readonly MediaStatus[];
/** A status value with index items. */
export type IndexedStatus = (typeof INDEXED_STATUSES)[number];

/** Whether a status value has index items. */
export function isIndexedStatus(value: MediaStatus): value is IndexedStatus {
  return (INDEXED_STATUSES as readonly MediaStatus[]).includes(value);
}

/** Longest url accepted (the common browser and CDN limit). */
export const MAX_URL_LENGTH = 2048;

/** The fields of an entry that never change once it is stored: what makes it the same request. */
export const REQUEST_FIELDS = ['id', 'send', 'url', 'user-id'] as const;

/**
 * How far ahead of the service's clock a `send` or a status's `at` may lie. A clock that runs ahead
 * must not freeze a status: a change stamped far in the future would make every later real change
 * look older and be ignored (DESIGN 7a). Five minutes covers honest skew between hosts.
 */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
