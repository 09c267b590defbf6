import { ValidationError } from '../shared/errors';
import { ROLES, USER_STATUSES, type Caller, type Role, type UserStatus } from '../shared/access/roles';
import { ForeignPositionError } from '../shared/dynamo/merged-query';
import { CURSOR_PARAMETER, decodeCursor, encodeCursor } from '../shared/pagination/cursor';
import type { USER_SORT_KEYS } from '../shared/tables/users-table';
import { usersKeys } from '../shared/tables/users-keys';
import type { ListUsersQuery, UserList, UserSortField } from './list-schemas';
import type { UserSummary } from './schemas';

import type { UserListRepository, UserPartition } from './user-list-repository';
import { toUserSummary } from './user-view';
import type { UserRecord } from './user-record';
import type { UserRepository } from './user-repository';

const DEFAULT_LIMIT = 10;

/** The index sort key serving a sort field: `created` follows `id`, since ids are allocated in creation order. */
const SORT_KEY_OF: Record<UserSortField, (typeof USER_SORT_KEYS)[number]> = { id: 'id', created: 'id', email: 'email', username: 'username' };

/** The listing, resolved: which partitions to read and how to count them. */
interface ListPlan {
  readonly partitions: UserPartition[];
  /**
   * Total from the kept counts of a scope (roles × statuses), or by counting the partitions when a
   * prefix bounds them (the count then reads only the matching range).
   */
  readonly total: { readonly scope: 'all' | { family: number }; readonly roles: readonly Role[]; readonly statuses: readonly UserStatus[] } | 'count';
}

function prefixOf(query: ListUsersQuery, sortField: UserSortField): { prefix?: string } {
  const field = query.email !== undefined ? 'email' : query.username !== undefined ? 'username' : undefined;
  if (field === undefined) return {};
  if (query.email !== undefined && query.username !== undefined) {
    throw new ValidationError([{ name: 'username', reason: 'Filter by an email prefix or a username prefix, not both.' }]);
  }
  if (sortField !== field) {
    throw new ValidationError([{ name: 'sort[field]', reason: `A ${field} prefix filter lists users sorted by ${field}.` }]);
  }
  return { prefix: (query[field] as string).toLowerCase() };
}

/**
 * Which index partitions hold exactly the users a root, admin or user caller may see, with the
 * filters applied: root reads everyone (or the role partitions asked for), admin the same without
 * root users, a user its family partition (itself and its subs).
 */
function planListing(caller: Caller, query: ListUsersQuery, prefix: { prefix?: string }): ListPlan {
  const statuses = query.status ?? USER_STATUSES;
  const filters = { ...prefix, ...(query.status ? { statuses: query.status } : {}) };
  const visibleRoles = caller.role === 'admin' ? ROLES.filter((role) => role !== 'root') : [...ROLES];
  const roles = query.role ? visibleRoles.filter((role) => query.role?.includes(role)) : visibleRoles;
  const counted = (scope: 'all' | { family: number }) => (prefix.prefix === undefined ? { scope, roles, statuses } : ('count' as const));
  if (caller.role === 'root' || caller.role === 'admin') {
    const partitions: UserPartition[] = query.role
      ? roles.map((role) => ({ scope: 'role', value: usersKeys.scope.role(role), ...filters }))
      : [{ scope: 'all', value: usersKeys.scope.all, ...filters, ...(caller.role === 'admin' ? { excludeRole: 'root' as const } : {}) }];
    return { partitions, total: counted('all') };
  }
  const partition: UserPartition = { scope: 'family', value: usersKeys.scope.family(caller.userId), ...filters, ...(query.role ? { roles: query.role } : {}) };
  return { partitions: [partition], total: counted({ family: caller.userId }) };
}

/** Whether a user passes the role, status and prefix filters (a sub's listing: itself or nothing). */
function passesFilters(user: UserRecord, query: ListUsersQuery): boolean {
  return (
    (!query.role || query.role.includes(user.role)) &&
    (!query.status || query.status.includes(user.status)) &&
    (query.email === undefined || user.email.toLowerCase().startsWith(query.email.toLowerCase())) &&
    (query.username === undefined || user.username.toLowerCase().startsWith(query.username.toLowerCase()))
  );
}

/** What a cursor is bound to: a different query or caller cannot reuse it. */
function fingerprint(caller: Caller, query: ListUsersQuery, limit: number): string {
  const { pagination: _pagination, ...rest } = query;
  return JSON.stringify([caller.userId, limit, rest]);
}

/** GET /user: the users in the caller's scope, filtered, sorted by an index, paginated, with an exact total. */
export class UserListing {
  public constructor(
    private readonly lists: UserListRepository,
    private readonly users: Pick<UserRepository, 'findById'>,
  ) {}

  public async list(caller: Caller, query: ListUsersQuery): Promise<UserList> {
    const sortField = query.sort?.field ?? (query.email !== undefined ? 'email' : query.username !== undefined ? 'username' : 'id');
    const order = query.sort?.order ?? 'asc';
    const limit = query.pagination?.limit ?? DEFAULT_LIMIT;
    const prefix = prefixOf(query, sortField);
    const key = fingerprint(caller, query, limit);
    const cursor = query.pagination?.cursor === undefined ? undefined : decodeCursor(query.pagination.cursor, key);
    if (cursor && query.pagination?.page !== undefined && query.pagination.page !== cursor.page) {
      throw new ValidationError([{ name: 'pagination[page]', reason: 'Omit it with a cursor, or give the page the cursor leads to.' }]);
    }
    const page = cursor?.page ?? query.pagination?.page ?? 1;
    const reply = (users: UserSummary[], total: number, next: string | null): UserList => ({
      filter: {
        ...(query.role ? { role: query.role } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.email !== undefined ? { email: query.email } : {}),
        ...(query.username !== undefined ? { username: query.username } : {}),
      },
      pagination: { count: users.length, limit, page, total, next },
      sort: { field: sortField, order },
      users,
    });
    if (caller.role === 'sub') {
      // A sub user sees only itself: one read of its own profile, not a listing.
      const self = await this.users.findById(caller.userId);
      const matches = self !== null && passesFilters(self, query) ? [toUserSummary(self)] : [];
      return reply(page === 1 ? matches : [], matches.length, null);
    }
    const plan = planListing(caller, query, prefix);
    const sortKey = SORT_KEY_OF[sortField];
    const [result, total] = await Promise.all([
      this.pageOrCursorError(plan.partitions, sortKey, {
        descending: order === 'desc',
        skip: cursor ? 0 : (page - 1) * limit,
        take: limit,
        ...(cursor ? { starts: cursor.positions } : {}),
      }),
      plan.total === 'count' ? this.lists.count(plan.partitions, sortKey) : this.lists.countCombinations(plan.total.scope, plan.total.roles, plan.total.statuses),
    ]);
    const users = result.items.map((item) => toUserSummary(item as unknown as UserRecord));
    const next = result.more && users.length === limit ? encodeCursor({ page: page + 1, query: key, positions: result.positions }) : null;
    return reply(users, total, next);
  }

  /** A page; a cursor whose positions do not fit the listing's streams is the client's error (400). */
  private async pageOrCursorError(...args: Parameters<UserListRepository['page']>) {
    try {
      return await this.lists.page(...args);
    } catch (error) {
      if (error instanceof ForeignPositionError) throw new ValidationError([{ name: CURSOR_PARAMETER, reason: 'The cursor does not belong to this listing.' }]);
      throw error;
    }
  }
}
