import * as z from '../shared/validation/zod';

/**
 * The names of a profile as a client or an operator sends them, defined once: they validate the
 * profile updates, the CLI's user commands and generate the OpenAPI document.
 */

/** Longest first or last name, in characters. */
export const MAX_NAME_LENGTH = 100;

/**
 * A first or last name, as a client or an operator gives it: at most 100 characters, no control
 * characters; white space around it is trimmed. It may be empty: a user created without a name
 * has empty names, and reads them back as `""`, so sending them back must be accepted. The checks
 * come before the trim, so the OpenAPI document states exactly what is accepted.
 */
export const NamePartSchema = z.pipe(
  z.string().check(
    z.maxLength(MAX_NAME_LENGTH, `Must be at most ${MAX_NAME_LENGTH} characters.`),
    z.regex(/^[^\u0000-\u001F\u007F-\u009F]*$/, 'Must not contain control characters.'),
  ),
  z.transform((value: string) => value.trim()),
);

/** Body of PUT /user/current and PUT /user/{user-id}: only the names may change. */
export const UpdateProfileSchema = z.strictObject({
  'first-name': z.optional(NamePartSchema),
  'last-name': z.optional(NamePartSchema),
});
/** A validated profile update. */
export type UpdateProfile = z.output<typeof UpdateProfileSchema>;
