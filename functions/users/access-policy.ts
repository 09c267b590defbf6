import type { Caller, Role } from '../shared/http/types';
import type { Permissions } from './schemas';

/** What an access check needs to know about the target user. */
export interface AccessTarget {
  readonly id: number;
  readonly role: Role;
  readonly parentId: number | null;
}

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

/** The `permissions` object of a user, derived from its role. */
export function permissionsOf(role: Role): Permissions {
  return {
    'manage-users': role === 'root' || role === 'admin',
    'manage-admins': role === 'root',
    'manage-sub-users': role !== 'sub',
    'media-log-scope': role === 'root' || role === 'admin' ? 'all' : role === 'user' ? 'own-and-sub-users' : 'own',
    'upload-avatar': true,
  };
}
