import type { Caller } from '../../shared/access/roles';
import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { COUNTER_SCOPES, type CounterScope } from '../model/keys';

/**
 * Whose entries a listing may show: everyone's but those of the `exclude` users (an admin does not
 * see root users' entries), or those of a set of users (possibly none).
 */
export type ListingScope =
  | { readonly kind: 'all'; readonly exclude: readonly number[] }
  | { readonly kind: 'users'; readonly ids: readonly number[] };

/** The counter scopes a listing reads and counts, and those it must leave out (an admin's hidden root users). */
export interface CountedScopes {
  /** The scopes whose entries (and counters) make up the listing. */
  readonly counted: readonly CounterScope[];
  /** Scopes inside `counted` whose entries are not shown: subtracted from totals, filtered from pages. */
  readonly hidden: readonly CounterScope[];
}

/**
 * The counter scopes of a listing without a url filter (a url keeps no counters: url-listing.ts):
 * the whole log, or each user's; an admin's listing of everyone hides the root users'.
 */
export function countedScopes(scope: ListingScope): CountedScopes {
  if (scope.kind === 'users') return { counted: scope.ids.map(COUNTER_SCOPES.user), hidden: [] };
  return { counted: [COUNTER_SCOPES.all], hidden: scope.exclude.map(COUNTER_SCOPES.user) };
}

/**
 * The media log scope of a caller (DESIGN.md section 2, `permissions.media-log-scope`): root and
 * admin see every entry, a user its own and its sub users' entries, a sub user its own. A `user-id`
 * filter narrows the scope; ids outside it contribute nothing, exactly like ids without entries.
 */
export class FamilyScopes {
  public constructor(private readonly users: Pick<UserScopeReader, 'familyMemberIds' | 'rootUserIds'>) {}

  /** The scope of `caller`, narrowed to `requested` user ids when given. */
  public async resolve(caller: Caller, requested?: readonly number[]): Promise<ListingScope> {
    if (caller.role === 'root' || caller.role === 'admin') {
      // Admin manages everyone but root users (DESIGN.md section 2): their entries stay out of its listings.
      const hidden = caller.role === 'admin' ? await this.users.rootUserIds() : [];
      if (requested === undefined) return { kind: 'all', exclude: hidden };
      return { kind: 'users', ids: [...new Set(requested)].filter((id) => !hidden.includes(id)).sort((a, b) => a - b) };
    }
    const visible = caller.role === 'user' ? await this.users.familyMemberIds(caller.userId) : [caller.userId];
    const ids = requested === undefined ? visible : visible.filter((id) => requested.includes(id));
    return { kind: 'users', ids: [...new Set(ids)].sort((a, b) => a - b) };
  }
}
