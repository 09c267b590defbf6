import * as z from '../shared/validation/zod';
import { ROLES, USER_STATUSES } from '../shared/access/roles';

/**
 * The user resources of the interface (api-spec.md section 2), defined once: they validate input,
 * type the domain code and generate the OpenAPI document. Field names are the spec's kebab-case.
 */

/** A name part: trimmed, 1–100 characters, no control characters. */
const namePart = z.pipe(
  z.string(),
  z.pipe(
    z.transform((value: string) => value.trim()),
    z.string().check(
      z.minLength(1, 'Must not be empty or blank.'),
      z.maxLength(100, 'Must be at most 100 characters.'),
      z.refine((value) => !/\p{Cc}/u.test(value), 'Must not contain control characters.'),
    ),
  ),
);

/** Body of PUT /user/current and PUT /user/{user-id}: only the names may change. */
export const UpdateProfileSchema = z.strictObject({
  'first-name': z.optional(namePart),
  'last-name': z.optional(namePart),
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

/** Avatar: a stored, cropped avatar image. */
export const AvatarSchema = z.object({
  id: z.string().check(z.uuid()),
  created: z.string().check(z.iso.datetime()),
  enabled: z.boolean(),
  provider: z.string(),
  url: z.string().check(z.url()),
});
/** An avatar. */
export type Avatar = z.output<typeof AvatarSchema>;

/** The `avatars` object of a User: the enabled avatar's id and every avatar, newest first. */
export const AvatarsSchema = z.object({
  current: z.nullable(z.string().check(z.uuid())),
  items: z.array(AvatarSchema),
});

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
