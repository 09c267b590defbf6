import { MANAGED_USERS_RULE } from '../shared/access/access-policy';
import type { RouteDocs } from '../shared/http/route-definition';
import { UserListSchema, UserSchema } from './schemas';

/**
 * What the API description says of the user routes beyond what they accept: only the OpenAPI
 * document reads it (functions/users/routes.ts pairs it with the operations), so the user
 * functions carry neither these texts nor the answer schemas.
 */

const PROFILE_DESCRIPTION =
  'Only `first-name` and `last-name` may change; each is at most 100 characters without control characters, trimmed of surrounding white space, and may be empty. ' +
  'Any other field (role, status, email, ...) is refused with 400. Send the ETag of a previous read as If-Match to refuse the update (412) if the profile changed since.';

/** The documentation of each user route, by route name. */
export const USER_ROUTE_DOCS = {
  listUsers: {
    summary: 'List the users the caller manages',
    description:
      'Root sees every user, admin every user but root users, a user itself and its sub users, a sub user itself. ' +
      'Query objects use the deepObject style: `pagination[page]=2&pagination[limit]=50&sort[field]=email&sort[order]=desc`. ' +
      'Arrays repeat the key or separate values by commas: `role=user&role=sub` or `role=user,sub`. ' +
      'Sortable fields, each served by an index: id (default, asc), created (follows id), email, username. ' +
      '`email` or `username`, one of them, filters by a case-insensitive prefix and lists sorted by that field. ' +
      '`total` is exact. For deep pages follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters.',
    tag: 'Users',
    success: { status: 200, description: 'A page of user summaries.', schema: UserListSchema },
    errors: [400],
  },
  getCurrentUser: {
    summary: "Read the caller's own profile",
    description: 'Extension of the interface: the full User of the caller, with an ETag for conditional updates.',
    tag: 'Users',
    success: { status: 200, description: 'The User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400],
  },
  updateCurrentUser: {
    summary: "Update the caller's own profile",
    description: PROFILE_DESCRIPTION,
    tag: 'Users',
    success: { status: 200, description: 'The updated User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400, 412, 415],
  },
  getUser: {
    summary: 'Read a user the caller manages',
    description: `Extension of the interface. ${MANAGED_USERS_RULE}`,
    tag: 'Users',
    success: { status: 200, description: 'The User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400, 404],
  },
  updateUser: {
    summary: 'Update the profile of a user the caller manages (a sub user, for a user)',
    description: `${PROFILE_DESCRIPTION} A user outside the caller's scope answers 404.`,
    tag: 'Users',
    success: { status: 200, description: 'The updated User.', schema: UserSchema, headers: ['ETag'] },
    errors: [400, 404, 412, 415],
  },
} as const satisfies Readonly<Record<string, RouteDocs>>;
