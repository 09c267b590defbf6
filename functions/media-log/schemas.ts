import * as z from '../shared/validation/zod';
import { MAX_USER_ID } from '../shared/validation/user-id';

/**
 * The media log entry of the interface (api-spec.md section 2, DESIGN.md section 7), defined once:
 * it validates entries on ingest, types the domain code and generates the OpenAPI document. The
 * query and reply of GET /media/log are in list-schemas.ts.
 */

/** Values of every status field of an entry. */
export const MEDIA_STATUSES = ['pending', 'processing', 'success', 'warning', 'error', 'skipped'] as const;
/** One status value. */
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** The four status fields of an entry, in the order the counters encode them. */
export const STATUS_FIELDS = ['status', 'status-ffscan', 'status-mediainfo', 'status-scan-report'] as const;
/** One status field. */
export type StatusField = (typeof STATUS_FIELDS)[number];

/** Longest url accepted (the common browser and CDN limit). */
export const MAX_URL_LENGTH = 2048;

/** One status value of an entry. */
export const MediaStatusSchema = z.enum(MEDIA_STATUSES);
const status = MediaStatusSchema;

/** A date-time with or without offset, as stored and returned. */
export const DateTimeSchema = z.string().check(z.iso.datetime({ offset: true }));

/** A normalized date-time whose year has four digits: `toISOString` writes `+010000-…` past 9999. */
const FOUR_DIGIT_YEAR = /^\d{4}-/;

/**
 * A date-time with or without offset, normalized to UTC with milliseconds so that it sorts as text.
 * Its normalized value must fall within the years 0000–9999 (DESIGN 7a): `9999-12-31T23:59:59-01:00`
 * is a valid RFC 3339 date-time, but in UTC it lies in the year 10000, which as text sorts before
 * every stored key.
 */
export const NormalizedDateTimeSchema = z.pipe(
  DateTimeSchema,
  z.transform((value: string) => new Date(value).toISOString()),
).check(z.refine((value: string) => FOUR_DIGIT_YEAR.test(value), { message: 'Must fall within the years 0000 to 9999 in UTC.', abort: true }));

/**
 * How far ahead of the service's clock a `send` or a status's `at` may lie. A clock that runs ahead
 * must not freeze a status: a change stamped far in the future would make every later real change
 * look older and be ignored (DESIGN 7a). Five minutes covers honest skew between hosts.
 */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;

/** A normalized date-time the feed or an import stamps a change with: not over five minutes ahead. */
export const ChangeTimeSchema = NormalizedDateTimeSchema.check(
  z.refine((value: string) => Date.parse(value) <= Date.now() + MAX_CLOCK_AHEAD_MS, 'Must not lie more than 5 minutes in the future.'),
);

/** An entry id: a UUID, lower-cased, so the same entry always gets the same keys. */
export const EntryIdSchema = z.pipe(z.string().check(z.uuid()), z.transform((value: string) => value.toLowerCase()));

/** A media log entry as the API returns it. */
export const MediaLogEntrySchema = z.object({
  id: z.string().check(z.uuid()),
  send: DateTimeSchema,
  status,
  'status-ffscan': status,
  'status-mediainfo': status,
  'status-scan-report': status,
  url: z.string(),
  'user-id': z.number().check(z.int(), z.positive()),
});
/** A media log entry. */
export type MediaLogEntry = z.output<typeof MediaLogEntrySchema>;

/** The fields of an entry that never change once it is stored: what makes it the same request. */
export const REQUEST_FIELDS = ['id', 'send', 'url', 'user-id'] as const;

/** The fields of a new entry besides its statuses, as the pipeline writes them. */
const newRequestFields = {
  id: EntryIdSchema,
  send: ChangeTimeSchema,
  url: z.url({ protocol: /^https?$/ }).check(z.maxLength(MAX_URL_LENGTH, `Must be at most ${MAX_URL_LENGTH} characters.`)),
  'user-id': z.number().check(z.int(), z.positive(), z.maximum(MAX_USER_ID)),
};

/**
 * A media log entry as an import writes it: every field required, nothing else accepted. The id
 * is lower-cased and `send` normalized to UTC, so the same entry always gets the same keys.
 */
export const NewMediaLogEntrySchema = z.strictObject({
  ...newRequestFields,
  status,
  'status-ffscan': status,
  'status-mediainfo': status,
  'status-scan-report': status,
});

/** The entry of a `media-request` feed message (DESIGN.md section 7a): a status left out is `pending`. */
export const MediaRequestEntrySchema = z.strictObject({
  ...newRequestFields,
  status: z._default(status, 'pending'),
  'status-ffscan': z._default(status, 'pending'),
  'status-mediainfo': z._default(status, 'pending'),
  'status-scan-report': z._default(status, 'pending'),
});
