import { ValidationError } from '../shared/errors';
import { ROLES, type Caller, type Role } from '../shared/http/types';
import { decodeCursor, encodeCursor } from '../shared/pagination/cursor';
import type { USER_SORT_KEYS } from '../shared/tables/users-table';
import type { ListUsersQuery, UserList, UserSortField } from './list-schemas';
import { USER_STATUSES, type UserStatus } from './schemas';
import type { UserListRepository, UserPartition } from './user-list-repository';
import { toUserSummary } from './user-view';
import type { UserRecord } from './user-record';

const DEFAULT_LIMIT = 10;

/** The index sort key serving a sort field: `created` follows `id`, since ids are allocated in creation order. */
const SORT_KEY_OF: Record<UserSortField, (typeof USER_SORT_KEYS)[number]> = { id: 'id', created: 'id', email: 'email', username: 'username' };

/** The listing, resolved: which partitions to read and how to count them. */
interface ListPlan {
  readonly partitions: UserPartition[];
  /** Total from the kept counters (roles × statuses), or by counting the partitions (small or prefix-bounded). */
  readonly total: { readonly roles: readonly Role[]; readonly statuses: readonly UserStatus[] } | 'count';
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
 * Which index partitions hold exactly the users the caller may see, with the filters applied:
 * root reads everyone (or the role partitions asked for), admin the same without root users, a user
 * its family partition (itself and its subs), a sub only itself.
 */
function planListing(caller: Caller, query: ListUsersQuery, prefix: { prefix?: string }): ListPlan {
  const statuses = query.status;
  const filters = { ...prefix, ...(statuses ? { statuses } : {}) };
  const visibleRoles = caller.role === 'admin' ? ROLES.filter((role) => role !== 'root') : [...ROLES];
  if (caller.role === 'root' || caller.role === 'admin') {
    const roles = query.role ? visibleRoles.filter((role) => query.role?.includes(role)) : undefined;
    const partitions: UserPartition[] = roles
      ? roles.map((role) => ({ scope: 'role', value: `ROLE#${role}`, ...filters }))
      : [{ scope: 'all', value: 'USERS', ...filters, ...(caller.role === 'admin' ? { excludeRole: 'root' as const } : {}) }];
    const total = prefix.prefix === undefined ? { roles: roles ?? visibleRoles, statuses: statuses ?? USER_STATUSES } : ('count' as const);
    return { partitions, total };
  }
  const family = caller.role === 'user' ? caller.userId : caller.parentId;
  const partition: UserPartition = {
    scope: 'family',
    value: `FAMILY#${family}`,
    ...filters,
    ...(query.role ? { roles: query.role } : {}),
    ...(caller.role === 'sub' ? { onlyId: caller.userId } : {}),
  };
  return { partitions: [partition], total: 'count' };
}

/** What a cursor is bound to: a different query or caller cannot reuse it. */
function fingerprint(caller: Caller, query: ListUsersQuery, limit: number): string {
  const { pagination: _pagination, ...rest } = query;
  return JSON.stringify([caller.userId, limit, rest]);
}

/** GET /user: the users in the caller's scope, filtered, sorted by an index, paginated, with an exact total. */
export class UserListing {
  public constructor(private readonly lists: UserListRepository) {}

  public async list(caller: Caller, query: ListUsersQuery): Promise<UserList> {
    const sortField = query.sort?.field ?? (query.email !== undefined ? 'email' : query.username !== undefined ? 'username' : 'id');
    const order = query.sort?.order ?? 'asc';
    const limit = query.pagination?.limit ?? DEFAULT_LIMIT;
    const plan = planListing(caller, query, prefixOf(query, sortField));
    const key = fingerprint(caller, query, limit);
    const cursor = query.pagination?.cursor === undefined ? undefined : decodeCursor(query.pagination.cursor, key);
    if (cursor && query.pagination?.page !== undefined && query.pagination.page !== cursor.page) {
      throw new ValidationError([{ name: 'pagination[page]', reason: 'Omit it with a cursor, or give the page the cursor leads to.' }]);
    }
    const page = cursor?.page ?? query.pagination?.page ?? 1;
    const sortKey = SORT_KEY_OF[sortField];
    const [result, total] = await Promise.all([
      this.lists.page(plan.partitions, sortKey, {
        descending: order === 'desc',
        skip: cursor ? 0 : (page - 1) * limit,
        take: limit,
        ...(cursor ? { starts: cursor.positions } : {}),
      }),
      plan.total === 'count' ? this.lists.count(plan.partitions, sortKey) : this.lists.countByRoleAndStatus(plan.total.roles, plan.total.statuses),
    ]);
    const users = result.items.map((item) => toUserSummary(item as unknown as UserRecord));
    const next = result.more && users.length === limit ? encodeCursor({ page: page + 1, query: key, positions: result.positions }) : null;
    return {
      filter: {
        ...(query.role ? { role: query.role } : {}),
        ...(query.status ? { status: query.status } : {}),
        ...(query.email !== undefined ? { email: query.email } : {}),
        ...(query.username !== undefined ? { username: query.username } : {}),
      },
      pagination: { count: users.length, limit, page, total, next },
      sort: { field: sortField, order },
      users,
    };
  }
}
