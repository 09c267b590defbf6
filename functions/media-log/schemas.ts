import * as z from '../shared/validation/zod';
import { integerItem, queryList, queryString } from '../shared/validation/query-params';
import { PaginationQuerySchema, PaginationSchema, SORT_ORDERS, SortSchema } from '../shared/listing/pagination';
import { MAX_USER_ID } from '../shared/validation/user-id';

/**
 * The media log resources of the interface (api-spec.md section 2, DESIGN.md section 7), defined
 * once: they validate entries on ingest and list queries, type the domain code and generate the
 * OpenAPI document.
 */

/** Values of every status field of an entry. */
export const MEDIA_STATUSES = ['pending', 'processing', 'success', 'warning', 'error', 'skipped'] as const;
/** One status value. */
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** The four status fields of an entry, in the order the counters encode them. */
export const STATUS_FIELDS = ['status', 'status-ffscan', 'status-mediainfo', 'status-scan-report'] as const;
/** One status field. */
export type StatusField = (typeof STATUS_FIELDS)[number];

/** Fields the log sorts by; each is served by an index (every listing index is sorted by send). */
export const MEDIA_LOG_SORT_FIELDS = ['send'] as const;

/** Longest url accepted (the common browser and CDN limit). */
export const MAX_URL_LENGTH = 2048;

/** One status value of an entry. */
export const MediaStatusSchema = z.enum(MEDIA_STATUSES);
const status = MediaStatusSchema;
const dateTime = z.string().check(z.iso.datetime({ offset: true }));

/** A normalized date-time whose year has four digits: `toISOString` writes `+010000-…` past 9999. */
const FOUR_DIGIT_YEAR = /^\d{4}-/;

/**
 * A date-time with or without offset, normalized to UTC with milliseconds so that it sorts as text.
 * Its normalized value must fall within the years 0000–9999 (DESIGN 7a): `9999-12-31T23:59:59-01:00`
 * is a valid RFC 3339 date-time, but in UTC it lies in the year 10000, which as text sorts before
 * every stored key.
 */
export const NormalizedDateTimeSchema = z.pipe(
  dateTime,
  z.transform((value: string) => new Date(value).toISOString()),
).check(z.refine((value: string) => FOUR_DIGIT_YEAR.test(value), { message: 'Must fall within the years 0000 to 9999 in UTC.', abort: true }));
const normalizedDateTime = NormalizedDateTimeSchema;

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
  send: dateTime,
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

/** The `send` range filter: `send[from]` and `send[to]`, both inclusive, from not after to. */
const SendRangeQuerySchema = z.strictObject({
  from: z.optional(z.pipe(queryString, normalizedDateTime)),
  to: z.optional(z.pipe(queryString, normalizedDateTime)),
}).check(
  z.refine((range) => range.from === undefined || range.to === undefined || range.from <= range.to, {
    message: 'Must not be later than send[to].',
    path: ['from'],
  }),
);

const statusList = z.optional(queryList(status));

/** Query of GET /media/log. */
export const ListMediaLogQuerySchema = z.strictObject({
  status: statusList,
  'status-ffscan': statusList,
  'status-mediainfo': statusList,
  'status-scan-report': statusList,
  'user-id': z.optional(queryList(integerItem(1, MAX_USER_ID))),
  url: z.optional(queryString.check(z.maxLength(MAX_URL_LENGTH, `Must be at most ${MAX_URL_LENGTH} characters.`))),
  request: z.optional(z.pipe(queryString.check(z.uuid('Must be an entry id (a UUID).')), z.transform((value: string) => value.toLowerCase()))),
  send: z.optional(SendRangeQuerySchema),
  sort: z.optional(z.strictObject({ field: z.optional(z.enum(MEDIA_LOG_SORT_FIELDS)), order: z.optional(z.enum(SORT_ORDERS)) })),
  pagination: PaginationQuerySchema,
});
/** A validated GET /media/log query. */
export type ListMediaLogQuery = z.output<typeof ListMediaLogQuerySchema>;

/** The filters GET /media/log applied, echoed in the reply; the send range appears as `created`. */
export const MediaLogFilterSchema = z.object({
  created: z.optional(z.object({ from: z.optional(dateTime), to: z.optional(dateTime) })),
  request: z.optional(z.string()),
  status: z.optional(z.array(status)),
  'status-ffscan': z.optional(z.array(status)),
  'status-mediainfo': z.optional(z.array(status)),
  'status-scan-report': z.optional(z.array(status)),
  url: z.optional(z.string()),
  'user-id': z.optional(z.array(z.number().check(z.int()))),
});
/** An echoed media log filter. */
export type MediaLogFilter = z.output<typeof MediaLogFilterSchema>;

/** Reply of GET /media/log. */
export const MediaLogListSchema = z.object({
  filter: MediaLogFilterSchema,
  log: z.array(MediaLogEntrySchema),
  pagination: PaginationSchema,
  sort: SortSchema,
});
/** A GET /media/log reply. */
export type MediaLogList = z.output<typeof MediaLogListSchema>;
