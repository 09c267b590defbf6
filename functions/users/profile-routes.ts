import type { RouteOperation } from '../shared/http/route-definition';
import { USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import { UserPathSchema } from '../shared/validation/user-id';
import { UpdateProfileSchema } from './profile-schemas';

/** The profile routes: profiles read and updated, the caller's own or by id (their documentation: route-docs.ts). */

/**
 * The profile-name update: UpdateItem on a user's partition only. It answers the written profile
 * (`ReturnValues: ALL_NEW`), which returns every attribute, so no `dynamodb:Attributes` list fits it.
 */
const NAMES_UPDATE = { actions: ['UpdateItem'], partitions: USER_PARTITIONS, returnValues: ['ALL_NEW'] } as const;

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

/** PUT /user/current. */
export const updateCurrentUserRoute = {
  name: 'updateCurrentUser',
  method: 'PUT',
  path: '/user/current',
  handler: 'functions/users/update-current-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS, NAMES_UPDATE] },
  contract: {
    body: UpdateProfileSchema,
    requestHeaders: ['If-Match'],
  },
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

/** PUT /user/{user-id}. */
export const updateUserRoute = {
  name: 'updateUser',
  method: 'PUT',
  path: '/user/{user-id}',
  handler: 'functions/users/update-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS, NAMES_UPDATE] },
  contract: {
    pathParameters: UserPathSchema,
    body: UpdateProfileSchema,
    requestHeaders: ['If-Match'],
  },
} as const satisfies RouteOperation;
