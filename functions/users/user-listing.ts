import { ROLES, USER_STATUSES, type Caller, type Role, type UserStatus } from '../shared/access/roles';
import { ValidationError } from '../shared/errors';
import type { CursorCodec } from '../shared/listing/cursor';
import { DEFAULT_LIMIT, queryFingerprint, requestedPage, type PageRequest } from '../shared/listing/pagination';
import { usersKeys, type TotalsScope } from '../shared/tables/users-keys';
import type { ListUsersQuery, UserSortField } from './list-schemas';
import type { UserList } from './schemas';
import type { UserSummary } from './schemas';
import type { UserListRead, UserListRepository, UserPartition, UserSortKey } from './user-list-repository';
import type { UserRecord } from './user-record';
import type { UserRepository } from './user-repository';
import { toUserSummary } from './user-view';

/** The index sort key serving a sort field: `created` follows `id`, since ids are allocated in creation order. */
const SORT_KEY_OF: Record<UserSortField, UserSortKey> = { id: 'id', created: 'id', email: 'email', username: 'username' };

/** The listing, resolved: what to read, and where its total comes from. */
interface ListPlan {
  readonly read: UserListRead;
  /** Kept counts of a scope (roles × statuses), or a budgeted count when a prefix bounds the listing. */
  readonly total: { readonly scope: TotalsScope; readonly roles: readonly Role[]; readonly statuses: readonly UserStatus[] } | 'count';
}

/** The sort field of a query: as asked, else the prefix's field, else id. */
function sortFieldOf(query: ListUsersQuery): UserSortField {
  return query.sort?.field ?? (query.email !== undefined ? 'email' : query.username !== undefined ? 'username' : 'id');
}

/** The lower-case prefix of the sort key, when the query filters by one (it must list by that field). */
function prefixOf(query: ListUsersQuery, sortField: UserSortField): string | undefined {
  const field = query.email !== undefined ? 'email' : query.username !== undefined ? 'username' : undefined;
  if (field === undefined) return undefined;
  if (sortField !== field) throw new ValidationError([{ name: 'sort[field]', reason: `A ${field} prefix filter lists users sorted by ${field}.` }]);
  return (query[field] as string).toLowerCase();
}

/**
 * Which index partitions hold exactly the users a root, admin or user caller may see, with the
 * filters applied: root reads everyone (or the role partitions asked for), admin the same without
 * root users, a user its family partition (itself and its subs).
 */
function planListing(caller: Caller, query: ListUsersQuery, sort: UserSortKey, prefix: string | undefined): ListPlan {
  const statuses = query.status ?? USER_STATUSES;
  const filters = query.status ? { statuses: query.status } : {};
  const visibleRoles = caller.role === 'admin' ? ROLES.filter((role) => role !== 'root') : [...ROLES];
  const roles = query.role ? visibleRoles.filter((role) => query.role?.includes(role)) : visibleRoles;
  const read = (partitions: UserPartition[]): UserListRead => ({ partitions, sort, ...(prefix === undefined ? {} : { prefix }) });
  const counted = (scope: TotalsScope) => (prefix === undefined ? { scope, roles, statuses } : ('count' as const));
  if (caller.role === 'root' || caller.role === 'admin') {
    const partitions: UserPartition[] = query.role
      ? roles.map((role) => ({ scope: 'role', value: usersKeys.scope.role(role), ...filters }))
      : [{ scope: 'all', value: usersKeys.scope.all, ...filters, ...(caller.role === 'admin' ? { excludeRole: 'root' as const } : {}) }];
    return { read: read(partitions), total: counted('all') };
  }
  const family: UserPartition = { scope: 'family', value: usersKeys.scope.family(caller.userId), ...filters, ...(query.role ? { roles: query.role } : {}) };
  return { read: read([family]), total: counted({ family: caller.userId }) };
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

/** The filters a reply echoes. */
function echoFilter(query: ListUsersQuery): UserList['filter'] {
  return {
    ...(query.role ? { role: query.role } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...(query.email !== undefined ? { email: query.email } : {}),
    ...(query.username !== undefined ? { username: query.username } : {}),
  };
}

/** GET /user: the users in the caller's scope, filtered, sorted by an index, paginated, with an exact total. */
export class UserListing {
  public constructor(
    private readonly lists: UserListRepository,
    private readonly users: Pick<UserRepository, 'findById'>,
    private readonly cursors: CursorCodec,
  ) {}

  public async list(caller: Caller, query: ListUsersQuery): Promise<UserList> {
    const sortField = sortFieldOf(query);
    const order = query.sort?.order ?? 'asc';
    const prefix = prefixOf(query, sortField);
    const fingerprint = queryFingerprint(caller, query, query.pagination?.limit ?? DEFAULT_LIMIT);
    const request = requestedPage(query.pagination, this.cursors, fingerprint);
    const reply = (users: UserSummary[], total: { count: number; exact: boolean }, next: string | null): UserList => ({
      filter: echoFilter(query),
      pagination: { count: users.length, limit: request.limit, page: request.page, total: total.count, next, 'total-exact': total.exact },
      sort: { field: sortField, order },
      users,
    });
    if (caller.role === 'sub') {
      // A sub user sees only itself: one read of its own profile, not a listing.
      const self = await this.users.findById(caller.userId);
      const matches = self !== null && passesFilters(self, query) ? [toUserSummary(self)] : [];
      return reply(request.page === 1 ? matches : [], { count: matches.length, exact: true }, null);
    }
    const plan = planListing(caller, query, SORT_KEY_OF[sortField], prefix);
    const [page, total] = await Promise.all([this.page(plan, request, order === 'asc'), this.total(plan)]);
    const users = page.values.map((item) => toUserSummary(item as unknown as UserRecord));
    const next = page.edge === undefined ? null : this.cursors.encode({ page: request.page + 1, edge: page.edge }, fingerprint);
    return reply(users, total, next);
  }

  private page(plan: ListPlan, request: PageRequest, ascending: boolean) {
    return this.lists.page(plan.read, { ascending, skip: request.offset, take: request.limit, ...(request.edge === undefined ? {} : { edge: request.edge }) });
  }

  private async total(plan: ListPlan): Promise<{ count: number; exact: boolean }> {
    if (plan.total !== 'count') return { count: await this.lists.countCombinations(plan.total.scope, plan.total.roles, plan.total.statuses), exact: true };
    return this.lists.countPrefixed(plan.read as UserListRead & { prefix: string });
  }
}
