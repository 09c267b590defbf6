import type { RouteOperation } from '../shared/http/route-definition';
import { USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import { UserPathSchema } from '../shared/validation/user-id';

/**
 * The profile reads, the caller's own or by id; the updates are in profile-update-routes.ts, so that
 * these functions build none of their schemas (their documentation: route-docs.ts).
 */

/** GET /user/current. */
export const getCurrentUserRoute = {
  name: 'getCurrentUser',
  method: 'GET',
  path: '/user/current',
  handler: 'functions/users/get-current-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS] },
  contract: {},
} as const satisfies RouteOperation;

/** GET /user/{user-id}. */
export const getUserRoute = {
  name: 'getUser',
  method: 'GET',
  path: '/user/{user-id}',
  handler: 'functions/users/get-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS] },
  contract: {
    pathParameters: UserPathSchema,
  },
} as const satisfies RouteOperation;
