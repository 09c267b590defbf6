import * as z from '../../shared/validation/zod';
import { integerItem, queryList, queryString } from '../../shared/validation/query-params';
import { PaginationQuerySchema, SORT_ORDERS } from '../../shared/listing/pagination';
import { MAX_USER_ID } from '../../shared/validation/user-id';
import { MAX_URL_LENGTH } from '../model/entry-fields';
import { MediaStatusSchema, NormalizedDateTimeSchema, perStatusField } from '../model/field-schemas';

/**
 * The query of GET /media/log (api-spec.md section 2), defined once: it validates list queries,
 * types the listing and generates the OpenAPI document. The reply is in schemas.ts.
 */

/** Fields the log sorts by; each is served by an index (every listing index is sorted by send). */
export const MEDIA_LOG_SORT_FIELDS = ['send'] as const;

/** The `send` range filter: `send[from]` and `send[to]`, both inclusive, from not after to. */
const SendRangeQuerySchema = z.strictObject({
  from: z.optional(z.pipe(queryString, NormalizedDateTimeSchema)),
  to: z.optional(z.pipe(queryString, NormalizedDateTimeSchema)),
}).check(
  z.refine((range) => range.from === undefined || range.to === undefined || range.from <= range.to, {
    message: 'Must not be later than send[to].',
    path: ['from'],
  }),
  // DESIGN.md 7b, round five: TTL removes expired entries days late; a listing never shows them.
  z.describe(
    'Send times of the entries listed, both inclusive. Where the deployment keeps the log for a number of days (its retention), every range starts no earlier than that many days ago: older entries are neither listed nor counted, whether or not they are deleted yet.',
  ),
);

/** Query of GET /media/log. */
export const ListMediaLogQuerySchema = z.strictObject({
  ...perStatusField(z.optional(queryList(MediaStatusSchema))),
  'user-id': z.optional(queryList(integerItem(1, MAX_USER_ID))),
  url: z.optional(queryString.check(z.maxLength(MAX_URL_LENGTH, `Must be at most ${MAX_URL_LENGTH} characters.`))),
  request: z.optional(z.pipe(queryString.check(z.uuid('Must be an entry id (a UUID).')), z.transform((value: string) => value.toLowerCase()))),
  send: z.optional(SendRangeQuerySchema),
  sort: z.optional(z.strictObject({ field: z.optional(z.enum(MEDIA_LOG_SORT_FIELDS)), order: z.optional(z.enum(SORT_ORDERS)) })),
  pagination: PaginationQuerySchema,
});
/** A validated GET /media/log query. */
export type ListMediaLogQuery = z.output<typeof ListMediaLogQuerySchema>;
