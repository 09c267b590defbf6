import * as z from '../../shared/validation/zod';
import { DateTimeSchema, MediaStatusSchema, perStatusField } from './field-schemas';
import { PaginationSchema, SortSchema } from '../../shared/listing/list-reply-schemas';

/**
 * The media log as the API answers it (api-spec.md section 2, DESIGN.md section 7), defined once:
 * it types the domain code and generates the OpenAPI document. What the API and the pipeline send
 * is validated by list-schemas.ts and ingest/ apart, so that no function builds these.
 */

const status = MediaStatusSchema;

/** A media log entry as the API returns it. */
export const MediaLogEntrySchema = z.object({
  id: z.string().check(z.uuid()),
  send: DateTimeSchema,
  ...perStatusField(status),
  url: z.string(),
  'user-id': z.number().check(z.int(), z.positive()),
});
/** A media log entry. */
export type MediaLogEntry = z.output<typeof MediaLogEntrySchema>;

/** The filters GET /media/log applied, echoed in the reply; the send range appears as `created`. */
export const MediaLogFilterSchema = z.object({
  created: z.optional(z.object({ from: z.optional(DateTimeSchema), to: z.optional(DateTimeSchema) })),
  request: z.optional(z.string()),
  ...perStatusField(z.optional(z.array(status))),
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
