import * as z from '../shared/validation/zod';
import { AvatarsSchema } from '../avatars/schemas';
import { ROLES, USER_STATUSES } from '../shared/access/roles';
import { PaginationSchema, SortSchema } from '../shared/listing/list-reply-schemas';

/**
 * The user resources of the interface (api-spec.md section 2), as the API answers them, defined
 * once: they type the domain code and generate the OpenAPI document. Field names are the spec's
 * kebab-case. What a client may send is in profile-schemas.ts, apart, so that the functions that
 * validate it build none of these.
 */

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

/** The filters GET /user applied, echoed in the reply. */
export const UserFilterSchema = z.object({
  role: z.optional(z.array(z.enum(ROLES))),
  status: z.optional(z.array(z.enum(USER_STATUSES))),
  email: z.optional(z.string()),
  username: z.optional(z.string()),
});

/** Reply of GET /user. */
export const UserListSchema = z.object({
  filter: UserFilterSchema,
  pagination: PaginationSchema,
  sort: SortSchema,
  users: z.array(UserSummarySchema),
});
/** A GET /user reply. */
export type UserList = z.output<typeof UserListSchema>;
