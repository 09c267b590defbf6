import type { Role, UserStatus } from '../shared/access/roles';


/** A stored avatar, as the users table keeps it (one item per avatar, beside the profile). */
export interface AvatarRecord {
  readonly userId: number;
  readonly avatarId: string;
  readonly created: string;
  readonly objectKey: string;
  readonly provider: string;
}

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

/** What the authorizer needs to know about a token's subject. */
export interface AuthIdentity {
  readonly id: number;
  readonly role: Role;
  readonly status: UserStatus;
  readonly parentId: number | null;
}
