import type { StoredCaller } from '../shared/access/roles';
import { retry } from '../shared/async/retry';
import { NotFoundError } from '../shared/errors';
import { managedAvatars } from './avatar-access';
import { discardObject, othersNewestFirst, ownAvatars, RACED_WRITE_RETRY, type AvatarWriteDependencies } from './avatar-writes';
import { avatarsBusy, AvatarsChangedError, AvatarWriteCancelledError } from './errors';

/**
 * Avatar deletions, keeping the image objects and the records consistent: delete the record (and
 * enable the next newest avatar, if it was the enabled one) in one transaction, then the object. A
 * failure after the record is gone leaves an object without a record, which the reconciler
 * deletes; never a record without its object.
 */
export class AvatarRemoval {
  public constructor(private readonly deps: AvatarWriteDependencies) {}

  /** Deletes the caller's avatar `avatarId`; 404 when the caller has no such avatar. */
  public async remove(caller: StoredCaller, avatarId: string): Promise<void> {
    const id = avatarId.toLowerCase();
    const removed = await retry(async (attempt) => {
      const found = attempt === 1 ? await ownAvatars(this.deps.avatars, caller) : await managedAvatars(this.deps.avatars, caller, 'current');
      const avatar = found.avatars.find((candidate) => candidate.avatarId === id);
      if (!avatar) throw new NotFoundError('No such avatar.');
      const { owner } = found;
      const current = owner.currentAvatarId === id ? (othersNewestFirst(found.avatars, id)[0]?.avatarId ?? null) : owner.currentAvatarId;
      await this.deps.avatars.remove(avatar, current, owner.version);
      return avatar;
    }, RACED_WRITE_RETRY).catch((error: unknown) => {
      if (error instanceof AvatarsChangedError) throw avatarsBusy();
      // Any other failure may have deleted the record: keeping the object is the safe side.
      throw error instanceof AvatarWriteCancelledError ? error.cause : error;
    });
    await discardObject(this.deps.storage, removed.objectKey);
  }
}
