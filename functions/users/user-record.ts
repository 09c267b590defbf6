import type { Role, UserStatus } from '../shared/access/roles';
import type { StoredItem } from '../shared/tables/user-partition';

/** A user profile as the users table keeps it. */
export interface UserRecord {
  readonly id: number;
  readonly subject: string;
  readonly email: string;
  readonly username: string;
  readonly role: Role;
  readonly status: UserStatus;
  readonly parentId: number | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly additionalEmails: readonly string[] | null;
  readonly plan: { readonly id: number; readonly name: string; readonly expires: string } | null;
  /** Id of the enabled avatar, or null. */
  readonly currentAvatarId: string | null;
  readonly created: string;
  readonly updated: string;
  /** Incremented by every write; the ETag and the optimistic-concurrency guard. */
  readonly version: number;
}

const PROFILE_FIELDS = [
  'id', 'subject', 'email', 'username', 'role', 'status', 'parentId', 'firstName', 'lastName',
  'additionalEmails', 'plan', 'currentAvatarId', 'created', 'updated', 'version',
] as const satisfies readonly (keyof UserRecord)[];

/** The profile a stored profile item holds (the item's key and index attributes left out). */
export function toUserRecord(item: StoredItem): UserRecord {
  const record = Object.fromEntries(PROFILE_FIELDS.map((field) => [field, item[field] ?? null]));
  return record as unknown as UserRecord;
}
