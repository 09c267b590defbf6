import { USER_INDEX_ATTRIBUTES } from '../shared/tables/users-table';
import type { Role } from '../shared/access/roles';

/**
 * Key templates of the users table, built in one place (see users-table.ts for the layout).
 */
export const userKeys = {
  profile: (id: number) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  partition: (id: number) => `USER#${id}`,
  avatar: (userId: number, avatarId: string) => ({ pk: `USER#${userId}`, sk: `AVATAR#${avatarId}` }),
  avatarPrefix: 'AVATAR#',
  profileSortKey: 'PROFILE',
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  idSequence: { pk: 'COUNTER', sk: 'USER_ID' },
  /** Exact user counts of a listing scope, one attribute per `<role>#<status>` (see {@link totalsAttribute}). */
  totals: (scope: 'all' | { family: number }) => ({ pk: 'COUNTER', sk: scope === 'all' ? 'TOTALS' : `TOTALS#FAMILY#${scope.family}` }),
} as const;

/** The counter attribute of one role × status combination in a totals item. */
export function totalsAttribute(role: Role, status: string): string {
  return `${role}#${status}`;
}

/** The family (a user of role `user` and its subs) a user belongs to, or null for root and admin. */
export function familyOf(user: { id: number; role: Role; parentId: number | null }): number | null {
  return user.role === 'user' ? user.id : user.role === 'sub' ? user.parentId : null;
}

/** Zero-padded id, so that string order is numeric order in the sort-key indexes. */
export function paddedId(id: number): string {
  return String(id).padStart(16, '0');
}

/** The listing-index attributes a profile item carries (scope partitions and sort keys). */
export function listingAttributes(user: { id: number; role: Role; parentId: number | null; email: string; username: string }) {
  const { scope, sort } = USER_INDEX_ATTRIBUTES;
  // A user of role `user` heads its own family; a sub belongs to its parent's.
  const family = familyOf(user);
  return {
    [scope.all]: 'USERS',
    [scope.role]: `ROLE#${user.role}`,
    ...(family === null ? {} : { [scope.family]: `FAMILY#${family}` }),
    [sort.id]: paddedId(user.id),
    [sort.email]: `${user.email.toLowerCase()}#${paddedId(user.id)}`,
    [sort.username]: `${user.username.toLowerCase()}#${paddedId(user.id)}`,
  };
}
