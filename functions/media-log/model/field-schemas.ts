import * as z from '../../shared/validation/zod';
import { MAX_CLOCK_AHEAD_MS, MEDIA_STATUSES, STATUS_FIELDS, type StatusField } from './entry-fields';

/**
 * The values of an entry's fields as the API reads them: a status, a date-time, an entry id. The
 * feed, the import and the list query build on these.
 */

/** One status value of an entry. */
export const MediaStatusSchema = z.enum(MEDIA_STATUSES);

/** One schema per status field, in the order of {@link STATUS_FIELDS}: the four fields are declared once. */
export function perStatusField<S>(schema: S): { readonly [F in StatusField]: S } {
  return Object.fromEntries(STATUS_FIELDS.map((field) => [field, schema])) as { readonly [F in StatusField]: S };
}

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

/** A normalized date-time the feed or an import stamps a change with: not over five minutes ahead. */
export const ChangeTimeSchema = NormalizedDateTimeSchema.check(
  z.refine((value: string) => Date.parse(value) <= Date.now() + MAX_CLOCK_AHEAD_MS, 'Must not lie more than 5 minutes in the future.'),
);

/** An entry id: a UUID, lower-cased, so the same entry always gets the same keys. */
export const EntryIdSchema = z.pipe(z.string().check(z.uuid()), z.transform((value: string) => value.toLowerCase()));
