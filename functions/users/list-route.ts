import type { RouteOperation } from '../shared/http/route-definition';
import { COUNTER_PARTITION, USER_LIST_INDEXES, USER_PARTITIONS } from '../shared/deployment/users-table-access';
import { ListUsersQuerySchema } from './list-schemas';

/**
 * The list of users, apart from the profile routes, so that their functions carry none of its
 * schemas (its documentation: route-docs.ts).
 */

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
    query: ListUsersQuerySchema,
  },
} as const satisfies RouteOperation;
