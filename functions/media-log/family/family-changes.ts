import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { usersKeys } from '../../shared/tables/users-keys';

/**
 * Which users changed family, decided from the users table stream's old and new images alone (a
 * pure plan, run by rekey-moved-users.ts). A user's family in the media log is its top user: its
 * parent, or itself (DESIGN.md 7b, round five; feed/entry-writer.ts keys each new entry so).
 */

/** A user whose media log entries move from family `from` to family `to`. */
export interface FamilyChange {
  readonly userId: number;
  readonly from: number;
  readonly to: number;
}

/** A users table stream record, as Lambda delivers it. */
export interface UserImageRecord {
  readonly dynamodb?: { readonly NewImage?: Record<string, unknown>; readonly OldImage?: Record<string, unknown> };
}

/** The id and media log family of a profile image; undefined for any other item (an avatar, a claim). */
function familyOfImage(image: Record<string, unknown> | undefined): { readonly id: number; readonly family: number } | undefined {
  if (image === undefined) return undefined;
  const item = unmarshall(image as Record<string, AttributeValue>);
  if (item.sk !== usersKeys.profileSortKey || typeof item.id !== 'number') return undefined;
  return { id: item.id, family: typeof item.parentId === 'number' ? item.parentId : item.id };
}

/**
 * The family changes of a batch, one per user, from its first old family to its last new one (a
 * user moved twice within a batch moves once). A created or deleted user moves nothing: a new
 * user has no entries yet, and a deleted user's entries stay in the family they were written in.
 */
export function familyChanges(records: readonly UserImageRecord[]): FamilyChange[] {
  const byUser = new Map<number, { from: number; to: number }>();
  for (const record of records) {
    const [before, after] = [familyOfImage(record.dynamodb?.OldImage), familyOfImage(record.dynamodb?.NewImage)];
    if (before === undefined || after === undefined) continue;
    const known = byUser.get(after.id);
    byUser.set(after.id, { from: known?.from ?? before.family, to: after.family });
  }
  return [...byUser].flatMap(([userId, { from, to }]) => (from === to ? [] : [{ userId, from, to }]));
}
