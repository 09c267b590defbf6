import { MANAGED_USERS_RULE } from '../shared/access/access-policy';
import type { RouteDefinition } from '../shared/http/route-definition';
import { USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import { UserPathSchema } from '../shared/validation/user-id';
import { UpdateProfileSchema, UserSchema } from './schemas';

/** The profile routes: profiles read and updated, the caller's own or by id. */

const PROFILE_DESCRIPTION =
  'Only `first-name` and `last-name` may change; each is at most 100 characters without control characters, trimmed of surrounding white space, and may be empty. ' +
  'Any other field (role, status, email, ...) is refused with 400. Send the ETag of a previous read as If-Match to refuse the update (412) if the profile changed since.';

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
  contract: {
    summary: "Read the caller's own profile",
    description: 'Extension of the interface: the full User of the caller, with an ETag for conditional updates.',
    tag: 'Users',
    success: { status: 200, description: 'The User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400],
  },
} as const satisfies RouteDefinition;

/** PUT /user/current. */
export const updateCurrentUserRoute = {
  name: 'updateCurrentUser',
  method: 'PUT',
  path: '/user/current',
  handler: 'functions/users/update-current-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS, NAMES_UPDATE] },
  contract: {
    summary: "Update the caller's own profile",
    description: PROFILE_DESCRIPTION,
    tag: 'Users',
    body: UpdateProfileSchema,
    requestHeaders: ['If-Match'],
    success: { status: 200, description: 'The updated User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400, 412, 415],
  },
} as const satisfies RouteDefinition;

/** GET /user/{user-id}. */
export const getUserRoute = {
  name: 'getUser',
  method: 'GET',
  path: '/user/{user-id}',
  handler: 'functions/users/get-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS] },
  contract: {
    summary: 'Read a user the caller manages',
    description: `Extension of the interface. ${MANAGED_USERS_RULE}`,
    tag: 'Users',
    pathParameters: UserPathSchema,
    success: { status: 200, description: 'The User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400, 404],
  },
} as const satisfies RouteDefinition;

/** PUT /user/{user-id}. */
export const updateUserRoute = {
  name: 'updateUser',
  method: 'PUT',
  path: '/user/{user-id}',
  handler: 'functions/users/update-user.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS, NAMES_UPDATE] },
  contract: {
    summary: 'Update the profile of a user the caller manages (a sub user, for a user)',
    description: `${PROFILE_DESCRIPTION} A user outside the caller's scope answers 404.`,
    tag: 'Users',
    pathParameters: UserPathSchema,
    body: UpdateProfileSchema,
    requestHeaders: ['If-Match'],
    success: { status: 200, description: 'The updated User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400, 404, 412, 415],
  },
} as const satisfies RouteDefinition;
