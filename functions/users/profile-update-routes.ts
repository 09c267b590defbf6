import type { RouteOperation } from '../shared/http/route-definition';
import { USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import { UserPathSchema } from '../shared/validation/user-id';
import { UpdateProfileSchema } from './profile-schemas';

/** The profile updates, the caller's own or by id (their documentation: route-docs.ts). */

/**
 * The profile-name update: UpdateItem on a user's partition only. It answers the written profile
 * (`ReturnValues: ALL_NEW`), which returns every attribute, so no `dynamodb:Attributes` list fits it.
 */
const NAMES_UPDATE = { actions: ['UpdateItem'], partitions: USER_PARTITIONS, returnValues: ['ALL_NEW'] } as const;

/** PUT /user/current. */
export const updateCurrentUserRoute = {
  name: 'updateCurrentUser',
  method: 'PUT',
  path: '/user/current',
  handler: 'functions/users/update-current-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS, NAMES_UPDATE] },
  idempotencyKey: true,
  contract: {
    body: UpdateProfileSchema,
    requestHeaders: ['If-Match'],
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
  idempotencyKey: true,
  contract: {
    pathParameters: UserPathSchema,
    body: UpdateProfileSchema,
    requestHeaders: ['If-Match'],
  },
} as const satisfies RouteOperation;
