/**
 * Who a caller is, in the terms of the access rules (DESIGN.md section 2): roles, account states,
 * and the caller every object-level check is made with.
 */

/** Roles of the interface, from most to least powerful. */
export const ROLES = ['root', 'admin', 'user', 'sub'] as const;
/** A user's role. */
export type Role = (typeof ROLES)[number];

/** User states; only `active` users may call the API. */
export const USER_STATUSES = ['anonymous', 'pending', 'active', 'suspended'] as const;
/** A user's status. */
export type UserStatus = (typeof USER_STATUSES)[number];

/** Who is calling, as stored when the request is served. Handlers do every object-level check with it. */
export interface Caller {
  readonly userId: number;
  readonly role: Role;
  readonly parentId: number | null;
}

/**
 * A caller as read from the users table in this request, with the profile item that read returned:
 * routes about the caller's own profile reuse it instead of reading it again.
 */
export interface StoredCaller extends Caller {
  readonly profile: Readonly<Record<string, unknown>>;
}

/** Whose profile a request is about: the caller's own, or a user by id. */
export type UserTarget = 'current' | number;
