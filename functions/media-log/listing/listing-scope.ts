import type { Caller } from '../../shared/access/roles';
import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { COUNTER_SCOPES, type CounterScope } from '../model/keys';

/**
 * Whose entries a listing may show, by user: everyone's but those of the `exclude` users (an admin
 * does not see root users' entries), or those of a set of users (possibly none).
 */
export type MemberScope =
  | { readonly kind: 'all'; readonly exclude: readonly number[] }
  | { readonly kind: 'users'; readonly ids: readonly number[] };

/**
 * A family's own entries (a user of role `user` without a `user-id` filter), read by the family
 * each entry was written with (DESIGN.md 7b, round five): the top user's own partitions and
 * counters beside the family's, which hold its sub users' entries, so that the listing costs what
 * one user's does whatever the family's size. `moving`: users whose entries are being re-keyed into or
 * out of the family (a sub user moved to another parent); their entries are left out until done.
 */
export interface FamilyScope {
  readonly kind: 'family';
  readonly familyId: number;
  readonly moving: readonly number[];
}

/** Whose entries a listing may show. */
export type ListingScope = MemberScope | FamilyScope;

/** The users being re-keyed into or out of a family (family/family-moves.ts). */
export interface FamilyMoveReader {
  movingUsers(familyId: number): Promise<number[]>;
}

/** The counter scopes a listing reads and counts, and those it must leave out (an admin's hidden root users). */
export interface CountedScopes {
  /** The scopes whose entries (and counters) make up the listing. */
  readonly counted: readonly CounterScope[];
  /** Scopes inside `counted` whose entries are not shown: subtracted from totals, filtered from pages. */
  readonly hidden: readonly CounterScope[];
}

/**
 * The counter scopes of a listing without a url filter (a url keeps no counters): the whole log,
 * a family's, or each user's; an admin's listing of everyone hides the root users'.
 */
export function countedScopes(scope: ListingScope): CountedScopes {
  // The top user's own entries are in its user's partitions and counters, its sub users' in the family's (counters.ts).
  if (scope.kind === 'family') return { counted: [COUNTER_SCOPES.user(scope.familyId), COUNTER_SCOPES.family(scope.familyId)], hidden: [] };
  if (scope.kind === 'users') return { counted: scope.ids.map(COUNTER_SCOPES.user), hidden: [] };
  return { counted: [COUNTER_SCOPES.all], hidden: scope.exclude.map(COUNTER_SCOPES.user) };
}

/**
 * The media log scope of a caller (DESIGN.md section 2, `permissions.media-log-scope`): root and
 * admin see every entry, a user its own and its sub users' entries, a sub user its own. A `user-id`
 * filter narrows the scope; ids outside it contribute nothing, exactly like ids without entries.
 */
export class FamilyScopes {
  public constructor(
    private readonly users: Pick<UserScopeReader, 'familyMemberIds' | 'rootUserIds'>,
    private readonly moves?: FamilyMoveReader,
  ) {}

  /**
   * The scope of a listing by its indexes: a user's own scope (no `user-id` filter) is its family's
   * partition, read without its members; anything else as {@link resolve} says. A url or `request`
   * filter checks users on index items or entries that carry no family: those use {@link resolve}.
   */
  public async resolveOwn(caller: Caller, requested?: readonly number[]): Promise<ListingScope> {
    if (caller.role !== 'user' || requested !== undefined || this.moves === undefined) return this.resolve(caller, requested);
    return { kind: 'family', familyId: caller.userId, moving: await this.moves.movingUsers(caller.userId) };
  }

  /** The scope of `caller` by its users, narrowed to `requested` user ids when given. */
  public async resolve(caller: Caller, requested?: readonly number[]): Promise<MemberScope> {
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
