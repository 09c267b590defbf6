import type { Role } from '../access/roles';
import { USER_INDEX_ATTRIBUTES } from './users-table';

/**
 * Every key and partition value of the users table, built in this one place (users-table.ts
 * describes the layout). The users, avatars and auth code all address the table through it.
 */

/** A listing scope of the users table: everyone, or one family (a user of role `user` and its subs). */
export type TotalsScope = 'all' | { readonly family: number };

/** Zero-padded id, so that string order is numeric order in the sort-key indexes. */
export function paddedId(id: number): string {
  return String(id).padStart(16, '0');
}

/** The family (a user of role `user` and its subs) a user belongs to, or null for root and admin. */
export function familyOf(user: { readonly id: number; readonly role: Role; readonly parentId: number | null }): number | null {
  return user.role === 'user' ? user.id : user.role === 'sub' ? user.parentId : null;
}

/** What the partition key of every item of a user (its profile, avatars, claims) starts with: stream filters name them by it. */
export const USER_KEY_PREFIX = 'USER#';

/** Keys of the users table's items, and the partition values of its listing indexes. */
export const usersKeys = {
  /** `USER#<id>` / `PROFILE`: the profile. It sorts after the avatars (`AVATAR#…`) of its partition. */
  profile: (id: number) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  /** The partition of a user: its profile and its avatars. */
  partition: (id: number) => `USER#${id}`,
  profileSortKey: 'PROFILE',
  /** `USER#<id>` / `AVATAR#<uuid>`: one avatar of the user. */
  avatar: (userId: number, avatarId: string) => ({ pk: `USER#${userId}`, sk: `AVATAR#${avatarId}` }),
  avatarPrefix: 'AVATAR#',
  /** `EMAIL#<email>` / `EMAIL`: claims an address (case-insensitively) for one user. */
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  /** `SUBJECT#<subject>` / `SUBJECT`: claims a token subject for one user. */
  subject: (subject: string) => ({ pk: `SUBJECT#${subject}`, sk: 'SUBJECT' }),
  /** `COUNTER` / `USER_ID`: the id sequence. */
  idSequence: { pk: 'COUNTER', sk: 'USER_ID' },
  /** Exact user counts of a listing scope, one attribute per `<role>#<status>` (see {@link totalsAttribute}). */
  totals: (scope: TotalsScope) => ({ pk: 'COUNTER', sk: scope === 'all' ? 'TOTALS' : `TOTALS#FAMILY#${scope.family}` }),
  /** Partition values of the listing scopes (users-table.ts). */
  scope: {
    all: 'USERS',
    role: (role: Role) => `ROLE#${role}`,
    family: (family: number) => `FAMILY#${family}`,
  },
} as const;

/** The counter attribute of one role × status combination in a totals item. */
export function totalsAttribute(role: Role, status: string): string {
  return `${role}#${status}`;
}

/** The listing-index attributes a profile item carries (scope partitions and sort keys). */
export function listingAttributes(user: { id: number; role: Role; parentId: number | null; email: string; username: string }) {
  const { scope, sort } = USER_INDEX_ATTRIBUTES;
  // A user of role `user` heads its own family; a sub belongs to its parent's.
  const family = familyOf(user);
  return {
    [scope.all]: usersKeys.scope.all,
    [scope.role]: usersKeys.scope.role(user.role),
    ...(family === null ? {} : { [scope.family]: usersKeys.scope.family(family) }),
    [sort.id]: paddedId(user.id),
    [sort.email]: `${user.email.toLowerCase()}#${paddedId(user.id)}`,
    [sort.username]: `${user.username.toLowerCase()}#${paddedId(user.id)}`,
  };
}

/**
 * The items one user is stored as: its profile (with its listing attributes) and the claims that
 * keep its email and token subject unique, each naming the user. The repository's `create` writes
 * them in one transaction, each on condition that its key is free; the users bench stores them as
 * they are.
 */
export function userItems<T extends { id: number; subject: string; role: Role; parentId: number | null; email: string; username: string }>(record: T) {
  return {
    profile: { ...usersKeys.profile(record.id), ...record, ...listingAttributes(record) },
    email: { ...usersKeys.email(record.email), userId: record.id },
    subject: { ...usersKeys.subject(record.subject), userId: record.id },
  };
}
