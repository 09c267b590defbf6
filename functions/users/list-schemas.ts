import { ROLES, USER_STATUSES } from '../shared/access/roles';
import { PaginationQuerySchema, SORT_ORDERS } from '../shared/listing/pagination';
import { atMostOneOf, queryList } from '../shared/validation/query-params';
import * as z from '../shared/validation/zod';

/** Fields GET /user sorts by; each is served by an index (`created` by the id index: ids follow creation order). */
export const USER_SORT_FIELDS = ['id', 'created', 'email', 'username'] as const;
/** A user sort field. */
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/** Longest email or username prefix (the longest email address). */
const MAX_PREFIX_LENGTH = 254;

const prefix = (field: 'email' | 'username') =>
  z.string().check(
    z.minLength(1, 'Must not be empty.'),
    z.maxLength(MAX_PREFIX_LENGTH, `Must be at most ${MAX_PREFIX_LENGTH} characters.`),
    z.describe(`A case-insensitive prefix of the ${field}; the list is then sorted by ${field}.`),
  );

/** Query of GET /user. `email` and `username` exclude each other: a list is sorted by the one it filters on. */
export const ListUsersQuerySchema = atMostOneOf(
  z.strictObject({
    pagination: PaginationQuerySchema,
    sort: z.optional(z.strictObject({ field: z.optional(z.enum(USER_SORT_FIELDS)), order: z.optional(z.enum(SORT_ORDERS)) })),
    role: z.optional(queryList(z.enum(ROLES))),
    status: z.optional(queryList(z.enum(USER_STATUSES))),
    email: z.optional(prefix('email')),
    username: z.optional(prefix('username')),
  }),
  { name: 'prefix', members: ['email', 'username'] },
  'Filter by an email prefix or a username prefix, not both.',
);
/** A validated GET /user query. */
export type ListUsersQuery = z.output<typeof ListUsersQuerySchema>;
