import type { Role } from '../shared/access/roles';
import type { StoredItem } from '../shared/tables/user-partition';
import { usersKeys } from '../shared/tables/users-keys';

/** A stored avatar, as the users table keeps it (one item per avatar, beside the profile). */
export interface AvatarRecord {
  readonly userId: number;
  readonly avatarId: string;
  readonly created: string;
  readonly objectKey: string;
  readonly provider: string;
}

/**
 * The owner of avatars, as an avatar change needs it: who it is (for the access check), the
 * version every avatar transaction is conditional on, and the enabled avatar.
 */
export interface AvatarOwner {
  readonly id: number;
  readonly role: Role;
  readonly parentId: number | null;
  readonly status: string;
  readonly version: number;
  readonly currentAvatarId: string | null;
}

/** An owner with its avatars. */
export interface OwnedAvatars {
  readonly owner: AvatarOwner;
  readonly avatars: readonly AvatarRecord[];
}

/** The avatar record of a stored avatar item. */
export function toAvatarRecord(item: StoredItem): AvatarRecord {
  return {
    userId: item.userId as number,
    avatarId: item.avatarId as string,
    created: item.created as string,
    objectKey: item.objectKey as string,
    provider: item.provider as string,
  };
}

/** The stored item of an avatar record. */
export function avatarItem(avatar: AvatarRecord) {
  return {
    ...usersKeys.avatar(avatar.userId, avatar.avatarId),
    userId: avatar.userId,
    avatarId: avatar.avatarId,
    created: avatar.created,
    objectKey: avatar.objectKey,
    provider: avatar.provider,
  };
}

/** The avatar owner a stored profile item describes. */
export function toAvatarOwner(profile: StoredItem): AvatarOwner {
  return {
    id: profile.id as number,
    role: profile.role as AvatarOwner['role'],
    parentId: (profile.parentId as number | null | undefined) ?? null,
    status: profile.status as string,
    version: profile.version as number,
    currentAvatarId: (profile.currentAvatarId as string | null | undefined) ?? null,
  };
}
