import { presentAvatar } from '../avatars/avatar-presenter';
import type { AvatarRecord } from '../avatars/avatar-record';
import type { Role } from '../shared/access/roles';
import type { Permissions, User, UserSummary } from './schemas';
import type { UserRecord } from './user-record';

/** The User summary of a profile. */
export function toUserSummary(user: Pick<UserRecord, 'id' | 'email' | 'role' | 'status' | 'username'>): UserSummary {
  return { id: user.id, email: user.email, role: user.role, status: user.status, username: user.username };
}

/** The full User resource: profile, parent summary, avatars (newest first) and derived permissions. */
export function toUser(user: UserRecord, parent: UserRecord | null, avatars: readonly AvatarRecord[]): User {
  const items = [...avatars]
    .sort((a, b) => b.created.localeCompare(a.created))
    .map((avatar) => presentAvatar(avatar, avatar.avatarId === user.currentAvatarId));
  return {
    id: user.id,
    'additional-emails': user.additionalEmails ? [...user.additionalEmails] : null,
    avatars: items.length === 0 ? null : { current: user.currentAvatarId, items },
    created: user.created,
    email: user.email,
    'first-name': user.firstName,
    'last-name': user.lastName,
    parent: parent ? toUserSummary(parent) : null,
    permissions: permissionsOf(user.role),
    plan: user.plan ? { ...user.plan } : null,
    role: user.role,
    status: user.status,
    updated: user.updated,
    username: user.username,
  };
}

/** The strong ETag of a profile version. */
export function etagOf(user: Pick<UserRecord, 'version'>): string {
  return `"${user.version}"`;
}

/** The `permissions` object of a user, derived from its role (DESIGN.md section 2). */
export function permissionsOf(role: Role): Permissions {
  return {
    'manage-users': role === 'root' || role === 'admin',
    'manage-admins': role === 'root',
    'manage-sub-users': role !== 'sub',
    'media-log-scope': role === 'root' || role === 'admin' ? 'all' : role === 'user' ? 'own-and-sub-users' : 'own',
    'upload-avatar': true,
  };
}
