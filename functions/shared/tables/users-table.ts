import type { IndexDefinition, TableDefinition } from './table-definition';
import { TABLE_NAMES } from './table-names';

/**
 * Listing scopes of the users table. Every user item carries one partition value per scope, so a
 * listing reads one index partition in sort order and returns what it reads:
 * - `all`: every user (root's and admin's listings, admin skipping the few root users);
 * - `role`: the users of one role (the role filter);
 * - `family`: a user of role `user` together with its sub users (a user's own listing).
 */
export const USER_LIST_SCOPES = ['all', 'role', 'family'] as const;

/** Sort orders that an index serves. `created` follows `id`: ids are allocated in creation order. */
export const USER_SORT_KEYS = ['id', 'email', 'username'] as const;

/** Attribute names of the scope partitions and sort keys, shared by the repository and the indexes. */
export const USER_INDEX_ATTRIBUTES = {
  scope: { all: 'scopeAll', role: 'scopeRole', family: 'scopeFamily' },
  sort: { id: 'sortId', email: 'sortEmail', username: 'sortUsername' },
} as const;

/** The attributes of a User summary, projected into the listing indexes so listings never read the base table. */
export const USER_SUMMARY_ATTRIBUTES = ['id', 'email', 'role', 'status', 'username'] as const;

/** Name of the listing index for a scope and a sort key, e.g. `role-by-email`. */
export function userListIndexName(scope: (typeof USER_LIST_SCOPES)[number], sort: (typeof USER_SORT_KEYS)[number]): string {
  return `${scope}-by-${sort}`;
}

/** GET /user in one scope, sorted by one key: one Query per page, reading only the page (summary attributes projected). */
const listIndexes: IndexDefinition[] = USER_LIST_SCOPES.flatMap((scope) =>
  USER_SORT_KEYS.map((sort) => ({
    indexName: userListIndexName(scope, sort),
    partitionKey: { name: USER_INDEX_ATTRIBUTES.scope[scope], type: 'S' as const },
    sortKey: { name: USER_INDEX_ATTRIBUTES.sort[sort], type: 'S' as const },
    projection: { type: 'INCLUDE' as const, attributes: USER_SUMMARY_ATTRIBUTES },
  })),
);

/** The index that maps a token subject to its user (the authorizer's one read). */
export const USER_SUBJECT_INDEX = 'by-subject';

/**
 * Users, their avatars, the uniqueness claims and the counters, in one table (keys built in
 * users-keys.ts):
 * - `USER#<id>` / `PROFILE`: the profile; `USER#<id>` / `AVATAR#<uuid>`: its avatars;
 * - `EMAIL#<email>` / `EMAIL` and `SUBJECT#<subject>` / `SUBJECT`: claim an address and a token
 *   subject for one user, written in the same transaction as the profile;
 * - `COUNTER` / `USER_ID`: the id sequence; `COUNTER` / `TOTALS` and `TOTALS#FAMILY#<id>`: exact list
 *   totals, one attribute per role and status.
 * The stream (old and new image of every change) tells the live media log who lost access: a
 * status or role change or a deletion closes that user's connections, whichever path made it
 * (functions/live/access/).
 */
export const usersTable: TableDefinition = {
  ...TABLE_NAMES.users,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [
    ...listIndexes,
    // The authorizer maps a token subject to its user: one Query returning the id, role, status and parent it needs.
    {
      indexName: USER_SUBJECT_INDEX,
      partitionKey: { name: 'subject', type: 'S' },
      projection: { type: 'INCLUDE', attributes: ['id', 'role', 'status', 'parentId'] },
    },
  ],
  stream: 'NEW_AND_OLD_IMAGES',
};
