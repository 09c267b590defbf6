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
