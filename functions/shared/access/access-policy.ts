import type { Caller, Role } from './roles';

/** What an access check needs to know about the target user. */
export interface AccessTarget {
  readonly id: number;
  readonly role: Role;
  readonly parentId: number | null;
}

/** The access rule of DESIGN.md section 2, as the OpenAPI document states it for every route by id. */
export const MANAGED_USERS_RULE =
  'Root manages everyone, admin everyone but root users, a user itself and its sub users, a sub user itself. ' +
  "A user outside the caller's scope answers 404, exactly like one that does not exist.";

/**
 * Whether `caller` may manage `target` (read its full profile, update it, set its avatar), per
 * DESIGN.md section 2: root manages everyone, admin everyone but root, user itself and its own
 * subs, sub only itself. Callers answer 404 when this is false, as for a user that does not exist.
 */
export function canManage(caller: Caller, target: AccessTarget): boolean {
  switch (caller.role) {
    case 'root':
      return true;
    case 'admin':
      return target.role !== 'root';
    case 'user':
      return target.id === caller.userId || (target.role === 'sub' && target.parentId === caller.userId);
    case 'sub':
      return target.id === caller.userId;
  }
}
