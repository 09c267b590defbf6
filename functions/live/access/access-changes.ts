import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Role } from '../../shared/access/roles';
import { familyOf, usersKeys } from '../../shared/tables/users-keys';

/**
 * What a change of a user means to the live media log, decided from the users table stream's old
 * and new images alone (a pure plan, run by access-keeper.ts):
 * - a status or role change, a move to another parent, or a deletion takes the user's access:
 *   its connections close (DESIGN.md 7c, revocation);
 * - a user who joins or leaves a family changes what the family's head may see: the head's
 *   connections read their family again;
 * - a user who becomes or stops being root changes what every admin may see: admins' connections
 *   read the root users again.
 */

/** A user as a profile image holds what access depends on. */
interface Access {
  readonly id: number;
  readonly role: Role;
  readonly status: string;
  readonly parentId: number | null;
}

/** One thing to do about the live connections. */
export type AccessChange = { readonly kind: 'revoke'; readonly userId: number } | { readonly kind: 'refresh-family'; readonly headId: number } | { readonly kind: 'refresh-admins' };

/** A users table stream record, as Lambda delivers it. */
export interface UserStreamRecord {
  readonly dynamodb?: { readonly NewImage?: Record<string, unknown>; readonly OldImage?: Record<string, unknown> };
}

/** The access a profile image holds; undefined for any other item (an avatar, a claim, a counter). */
function accessOf(image: Record<string, unknown> | undefined): Access | undefined {
  if (image === undefined) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.sk !== usersKeys.profileSortKey || typeof item.id !== 'number') return undefined;
  return { id: item.id, role: item.role as Role, status: String(item.status), parentId: typeof item.parentId === 'number' ? item.parentId : null };
}

/** What one change of a profile asks of the live connections. */
export function accessChanges(before: Access | undefined, after: Access | undefined): AccessChange[] {
  const changes: AccessChange[] = [];
  if (before !== undefined && (after === undefined || after.status !== before.status || after.role !== before.role || after.parentId !== before.parentId)) {
    changes.push({ kind: 'revoke', userId: before.id });
  }
  const [was, is] = [before && familyOf(before), after && familyOf(after)];
  const user = (before ?? after)?.id;
  for (const head of new Set([was, is])) {
    // The user's own family changed with its role: its connections are revoked above.
    if (was !== is && head !== undefined && head !== null && head !== user) changes.push({ kind: 'refresh-family', headId: head });
  }
  if ((before?.role === 'root') !== (after?.role === 'root')) changes.push({ kind: 'refresh-admins' });
  return changes;
}

/** What a batch of the users table's stream asks, each thing once. */
export function batchAccessChanges(records: readonly UserStreamRecord[]): AccessChange[] {
  const all = records.flatMap((record) => accessChanges(accessOf(record.dynamodb?.OldImage), accessOf(record.dynamodb?.NewImage)));
  const seen = new Set<string>();
  return all.filter((change) => {
    const key = JSON.stringify(change);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
