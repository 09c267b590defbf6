import * as z from '../shared/validation/zod';
import { queryInteger, queryList, queryString } from '../shared/validation/query-params';
import { ROLES } from '../shared/access/roles';
import { USER_STATUSES } from '../shared/access/roles';
import { UserSummarySchema } from './schemas';

/** Fields GET /user sorts by; each is served by an index (`created` by the id index: ids follow creation order). */
export const USER_SORT_FIELDS = ['id', 'created', 'email', 'username'] as const;
/** A user sort field. */
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Pagination parameters shared by the list routes: `pagination[page]`, `pagination[limit]`, `pagination[cursor]`. */
export const PaginationQuerySchema = z.optional(
  z.strictObject({
    page: z.optional(queryInteger(1, 100_000)),
    limit: z.optional(queryInteger(1, 100)),
    cursor: z.optional(queryString),
  }),
);

/** Sort order values. */
export const SORT_ORDERS = ['asc', 'desc'] as const;

const prefix = z.string().check(z.minLength(1, 'Must not be empty.'), z.maxLength(254, 'Must be at most 254 characters.'));

/** Query of GET /user. */
export const ListUsersQuerySchema = z.strictObject({
  pagination: PaginationQuerySchema,
  sort: z.optional(z.strictObject({ field: z.optional(z.enum(USER_SORT_FIELDS)), order: z.optional(z.enum(SORT_ORDERS)) })),
  role: z.optional(queryList(z.enum(ROLES))),
  status: z.optional(queryList(z.enum(USER_STATUSES))),
  email: z.optional(prefix),
  username: z.optional(prefix),
});
/** A validated GET /user query. */
export type ListUsersQuery = z.output<typeof ListUsersQuerySchema>;

/** Pagination of a list reply (api-spec.md section 2), plus the `next` cursor extension. */
export const PaginationSchema = z.object({
  count: z.number().check(z.int()),
  limit: z.number().check(z.int()),
  page: z.number().check(z.int()),
  total: z.number().check(z.int()),
  next: z.nullable(z.string()),
});

/** Sort of a list reply. */
export const SortSchema = z.object({ field: z.string(), order: z.enum(SORT_ORDERS) });

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
