import * as z from '../shared/validation/zod';
import { integerItem, queryList, queryString } from '../shared/validation/query-params';
import { PaginationQuerySchema, PaginationSchema, SORT_ORDERS, SortSchema } from '../shared/listing/pagination';
import { MAX_USER_ID } from '../shared/validation/user-id';
import { DateTimeSchema, MAX_URL_LENGTH, MediaLogEntrySchema, MediaStatusSchema, NormalizedDateTimeSchema } from './schemas';

/**
 * The query and reply of GET /media/log (api-spec.md section 2), defined once: they validate list
 * queries, type the listing and generate the OpenAPI document.
 */

/** Fields the log sorts by; each is served by an index (every listing index is sorted by send). */
export const MEDIA_LOG_SORT_FIELDS = ['send'] as const;

const status = MediaStatusSchema;

/** The `send` range filter: `send[from]` and `send[to]`, both inclusive, from not after to. */
const SendRangeQuerySchema = z.strictObject({
  from: z.optional(z.pipe(queryString, NormalizedDateTimeSchema)),
  to: z.optional(z.pipe(queryString, NormalizedDateTimeSchema)),
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
  created: z.optional(z.object({ from: z.optional(DateTimeSchema), to: z.optional(DateTimeSchema) })),
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
