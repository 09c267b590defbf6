import * as z from '../../shared/validation/zod';
import { MAX_USER_ID } from '../../shared/validation/user-id';
import { MAX_URL_LENGTH } from '../model/entry-fields';
import { ChangeTimeSchema, EntryIdSchema, MediaStatusSchema } from '../model/field-schemas';

/**
 * A new entry as the media pipeline writes it: in a feed message (statuses may be left out) or a
 * line of `media-log import` (every field given). The id is lower-cased and `send` normalized to
 * UTC, so the same entry always gets the same keys.
 */

const status = MediaStatusSchema;

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
