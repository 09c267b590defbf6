import { USER_LIST_SCOPES, USER_SORT_KEYS, USER_SUBJECT_INDEX, userListIndexName } from '../tables/users-table';
import type { TableAccess } from './data-grants';

/**
 * The accesses to the users table that several functions share, as grant entries. Partition
 * patterns follow the keys of users-keys.ts; test/lib/function-grants-coverage.test.ts replays
 * every function's requests against them.
 */

/** The partition of one user: its profile and its avatars (`USER#<id>`). */
export const USER_PARTITIONS = ['USER#*'] as const;

/** The counters' partition: the id sequence and the list totals (`COUNTER`). */
export const COUNTER_PARTITION = 'COUNTER';

/**
 * Reads of user partitions by key: the caller's stored profile, which every bearer route reads
 * (functions/auth/stored-callers.ts), another user's profile and avatars (one Query of its partition).
 */
export const USER_PARTITION_READS: TableAccess = { actions: ['GetItem', 'Query'], partitions: USER_PARTITIONS };

/**
 * Stored profiles by key alone (GetItem): the caller's, which every bearer route reads, and that of
 * a user the caller manages where a route needs nothing of it but the right to act for it.
 */
export const CALLER_PROFILE_READ: TableAccess = { actions: ['GetItem'], partitions: USER_PARTITIONS };

/** Every listing index of the users table (scope × sort key). */
export const USER_LIST_INDEXES: readonly string[] = USER_LIST_SCOPES.flatMap((scope) => USER_SORT_KEYS.map((sort) => userListIndexName(scope, sort)));

/**
 * Who belongs together, for features that scope their data by user (functions/shared/tables/user-scope-reader.ts):
 * a family's members and the root users, by id, from their listing indexes.
 */
export const USER_DIRECTORY_READS: TableAccess = { actions: ['Query'], indexes: [userListIndexName('family', 'id'), userListIndexName('role', 'id')] };

/** The authorizer's one read: the user a token subject names, through the subject index. */
export const SUBJECT_LOOKUP: TableAccess = { actions: ['Query'], indexes: [USER_SUBJECT_INDEX] };
