import { MANAGED_USERS_RULE } from '../shared/access/access-policy';
import type { RouteDefinition } from '../shared/http/route-definition';
import { COUNTER_PARTITION, USER_LIST_INDEXES, USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import { ListUsersQuerySchema, UserListSchema } from './list-schemas';
import { UserPathSchema } from '../shared/validation/user-id';
import { UpdateProfileSchema, UserSchema } from './schemas';

/** The user routes: the list of users, and profiles read and updated, the caller's own or by id. */

const PROFILE_DESCRIPTION =
  'Only `first-name` and `last-name` may change; each is at most 100 characters without control characters, trimmed of surrounding white space, and may be empty. ' +
  'Any other field (role, status, email, ...) is refused with 400. Send the ETag of a previous read as If-Match to refuse the update (412) if the profile changed since.';

/**
 * The profile-name update: UpdateItem on a user's partition only. It answers the written profile
 * (`ReturnValues: ALL_NEW`), which returns every attribute, so no `dynamodb:Attributes` list fits it.
 */
const NAMES_UPDATE = { actions: ['UpdateItem'], partitions: USER_PARTITIONS, returnValues: ['ALL_NEW'] } as const;

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

/** The user routes, in the order the API description lists them. */
export const userRoutes = [listUsersRoute, getCurrentUserRoute, updateCurrentUserRoute, getUserRoute, updateUserRoute] as const;
