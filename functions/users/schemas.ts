import * as z from '../shared/validation/zod';
import { AvatarsSchema } from '../avatars/schemas';
import { ROLES, USER_STATUSES } from '../shared/access/roles';

/**
 * The user resources of the interface (api-spec.md section 2), defined once: they validate input,
 * type the domain code and generate the OpenAPI document. Field names are the spec's kebab-case.
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

/** User summary: items of the user list and the `parent` field. */
export const UserSummarySchema = z.object({
  id: z.number().check(z.int(), z.nonnegative()),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  username: z.string(),
});
/** A user summary. */
export type UserSummary = z.output<typeof UserSummarySchema>;

/** Plan: the subscription a user is on. */
export const PlanSchema = z.object({
  id: z.number().check(z.int()),
  name: z.string(),
  expires: z.string().check(z.iso.datetime()),
});

/** What the user may do, derived from its role (DESIGN.md section 2). */
export const PermissionsSchema = z.object({
  'manage-users': z.boolean(),
  'manage-admins': z.boolean(),
  'manage-sub-users': z.boolean(),
  'media-log-scope': z.enum(['all', 'own-and-sub-users', 'own']),
  'upload-avatar': z.boolean(),
});
/** A permissions object. */
export type Permissions = z.output<typeof PermissionsSchema>;

/** User (profile): every field of api-spec.md section 2. */
export const UserSchema = z.object({
  id: z.number().check(z.int(), z.nonnegative()),
  'additional-emails': z.nullable(z.array(z.string())),
  avatars: z.nullable(AvatarsSchema),
  created: z.string().check(z.iso.datetime()),
  email: z.string(),
  'first-name': z.string(),
  'last-name': z.string(),
  parent: z.nullable(UserSummarySchema),
  permissions: PermissionsSchema,
  plan: z.nullable(PlanSchema),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  updated: z.string().check(z.iso.datetime()),
  username: z.string(),
});
/** A user as the API returns it. */
export type User = z.output<typeof UserSchema>;
