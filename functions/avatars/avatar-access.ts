import { canManage } from '../shared/access/access-policy';
import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { NotFoundError } from '../shared/errors';
import type { OwnedAvatars } from './avatar-record';
import type { AvatarRepository } from './avatar-repository';

/**
 * The owner `target` names and its avatars, read now, if the caller may manage that user; 404
 * otherwise, exactly as for a user that does not exist (as profile updates answer), so that ids
 * cannot be probed.
 */
export async function managedAvatars(avatars: Pick<AvatarRepository, 'findOwner'>, caller: StoredCaller, target: UserTarget): Promise<OwnedAvatars> {
  const found = await avatars.findOwner(target === 'current' ? caller.userId : target);
  if (!found || !canManage(caller, found.owner)) throw new NotFoundError('No such user.');
  return found;
}
