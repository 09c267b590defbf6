import type { RouteDefinition } from '../shared/http/route-definition';
import { COUNTER_PARTITION, USER_LIST_INDEXES, USER_PARTITIONS } from '../shared/deployment/users-table-access';
import { ListUsersQuerySchema, UserListSchema } from './list-schemas';

/** The list of users, apart from the profile routes, so that their functions carry none of its schemas. */

/** GET /user. */
export const listUsersRoute = {
  name: 'listUsers',
  method: 'GET',
  path: '/user',
  handler: 'functions/users/list-users.ts',
  auth: 'bearer',
  // The caller's profile and the list totals by key; pages and prefix counts from the listing indexes.
  grants: { users: [{ actions: ['GetItem'], partitions: [...USER_PARTITIONS, COUNTER_PARTITION] }, { actions: ['Query'], indexes: USER_LIST_INDEXES }] },
  paginated: true,
  contract: {
    summary: 'List the users the caller manages',
    description:
      'Root sees every user, admin every user but root users, a user itself and its sub users, a sub user itself. ' +
      'Query objects use the deepObject style: `pagination[page]=2&pagination[limit]=50&sort[field]=email&sort[order]=desc`. ' +
      'Arrays repeat the key or separate values by commas: `role=user&role=sub` or `role=user,sub`. ' +
      'Sortable fields, each served by an index: id (default, asc), created (follows id), email, username. ' +
      '`email` and `username` filter by a case-insensitive prefix and list sorted by that field. ' +
      '`total` is exact. For deep pages follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters.',
    tag: 'Users',
    query: ListUsersQuerySchema,
    success: { status: 200, description: 'A page of user summaries.', schema: UserListSchema },
    errors: [400],
  },
} as const satisfies RouteDefinition;
