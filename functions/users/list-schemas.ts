import { ROLES, USER_STATUSES } from '../shared/access/roles';
import { PaginationQuerySchema, PaginationSchema, SORT_ORDERS, SortSchema } from '../shared/listing/pagination';
import { queryList } from '../shared/validation/query-params';
import * as z from '../shared/validation/zod';
import { UserSummarySchema } from './schemas';

/** Fields GET /user sorts by; each is served by an index (`created` by the id index: ids follow creation order). */
export const USER_SORT_FIELDS = ['id', 'created', 'email', 'username'] as const;
/** A user sort field. */
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Longest email or username prefix (the longest email address). */
const MAX_PREFIX_LENGTH = 254;

const prefix = (field: 'email' | 'username', other: 'email' | 'username') =>
  z.string().check(
    z.minLength(1, 'Must not be empty.'),
    z.maxLength(MAX_PREFIX_LENGTH, `Must be at most ${MAX_PREFIX_LENGTH} characters.`),
    z.describe(`A case-insensitive prefix of the ${field}; the list is then sorted by ${field}. Not together with \`${other}\`.`),
  );

/** Query of GET /user. */
export const ListUsersQuerySchema = z
  .strictObject({
    pagination: PaginationQuerySchema,
    sort: z.optional(z.strictObject({ field: z.optional(z.enum(USER_SORT_FIELDS)), order: z.optional(z.enum(SORT_ORDERS)) })),
    role: z.optional(queryList(z.enum(ROLES))),
    status: z.optional(queryList(z.enum(USER_STATUSES))),
    email: z.optional(prefix('email', 'username')),
    username: z.optional(prefix('username', 'email')),
  })
  .check(
    z.refine((query) => query.email === undefined || query.username === undefined, {
      path: ['username'],
      message: 'Filter by an email prefix or a username prefix, not both.',
    }),
  );
/** A validated GET /user query. */
export type ListUsersQuery = z.output<typeof ListUsersQuerySchema>;

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
