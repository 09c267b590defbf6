import type { Role, UserStatus } from '../shared/access/roles';
import { familyOf, totalsAttribute, usersKeys, type TotalsScope } from '../shared/tables/users-keys';

/** What the totals need to know of a user. */
export interface CountedUser {
  readonly id: number;
  readonly role: Role;
  readonly status: UserStatus;
  readonly parentId: number | null;
}

/** The listing scopes a user is counted in: everyone, and its family if it has one. */
export function totalsScopesOf(user: CountedUser): TotalsScope[] {
  const family = familyOf(user);
  return family === null ? ['all'] : ['all', { family }];
}

/**
 * Transaction items that move users between the role × status counts of the scopes they show in:
 * each `[user, delta]` adds `delta` to the user's count in each of its scopes. The changes of one
 * totals item are merged into one update (a transaction may touch an item once), and those that
 * cancel out are left out. Written in the same transaction as the change they count, the totals
 * never drift.
 */
export function totalsUpdates(tableName: string, ...changes: readonly (readonly [CountedUser, number])[]) {
  const byItem = new Map<string, { key: ReturnType<typeof usersKeys.totals>; deltas: Map<string, number> }>();
  for (const [user, delta] of changes) {
    for (const scope of totalsScopesOf(user)) {
      const key = usersKeys.totals(scope);
      const entry = byItem.get(key.sk) ?? { key, deltas: new Map<string, number>() };
      const attribute = totalsAttribute(user.role, user.status);
      entry.deltas.set(attribute, (entry.deltas.get(attribute) ?? 0) + delta);
      byItem.set(key.sk, entry);
    }
  }
  return [...byItem.values()].flatMap(({ key, deltas }) => {
    const moves = [...deltas].filter(([, delta]) => delta !== 0);
    if (moves.length === 0) return [];
    return [{
      Update: {
        TableName: tableName,
        Key: key,
        UpdateExpression: `ADD ${moves.map((_, index) => `#a${index} :d${index}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(moves.map(([attribute], index) => [`#a${index}`, attribute])),
        ExpressionAttributeValues: Object.fromEntries(moves.map(([, delta], index) => [`:d${index}`, delta])),
      },
    }];
  });
}
