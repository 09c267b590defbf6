import { randomUUID } from 'node:crypto';
import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { retry } from '../shared/async/retry';
import { logger } from '../shared/logger';
import { managedAvatars } from './avatar-access';
import { avatarObjectKey, sha256Hex } from './avatar-object-key';
import { presentAvatar } from './avatar-presenter';
import type { AvatarRecord, OwnedAvatars } from './avatar-record';
import { discardObject, othersNewestFirst, ownAvatars, RACED_WRITE_RETRY, type AvatarWriteDependencies } from './avatar-writes';
import { avatarsBusy, AvatarsChangedError, AvatarWriteCancelledError, UnsettledAvatarWriteError } from './errors';
import type { CroppedAvatar } from './image/crop-avatar';
import type { AvatarCrop } from './image/crop-spec';
import type { Avatar } from './schemas';

/** Where avatar images come from: read the source image (an address, or a file the user uploaded) and crop it. */
export interface AvatarImageSource {
  /** The avatar cut out of the image `source` names for user `ownerId`; throws the source's and the pipeline's problems. */
  produce(source: string, crop: AvatarCrop, ownerId: number): Promise<CroppedAvatar>;
  /** Told once the avatar made of `source` is stored, so that an uploaded file is not used twice. */
  used(source: string, ownerId: number): Promise<void>;
}

/** What the service works with. */
export interface AvatarServiceDependencies extends AvatarWriteDependencies {
  /** Most avatars a user holds: an upload beyond it replaces the oldest disabled one. */
  readonly maxAvatars: number;
  readonly images: AvatarImageSource;
}

/** An image object stored under its key, waiting for its record. */
interface NewObject {
  readonly avatarId: string;
  readonly objectKey: string;
}

/** A record written and enabled, and the avatar it replaced under the cap, if any. */
interface RecordedAvatar {
  readonly record: AvatarRecord;
  readonly replaced?: AvatarRecord;
}

/** An avatar upload as the route validated it. */
export interface AvatarUploadRequest {
  readonly avatar: string;
  readonly crop: AvatarCrop;
}

/**
 * A timestamp after every existing avatar's, so that the newest avatar (the enabled one) is also
 * the last one listed as created, even when clocks or requests collide within a millisecond.
 */
function creationTime(existing: readonly AvatarRecord[], now: Date): Date {
  const newest = Math.max(0, ...existing.map((avatar) => Date.parse(avatar.created)));
  return new Date(Math.max(now.getTime(), newest + 1));
}

/**
 * Avatar uploads, keeping the image objects and the records consistent (deletions: avatar-removal.ts):
 * check access to another user's profile (404 before anything is fetched; the caller's own was
 * read with the request), put the object under its content-addressed key, then record it and
 * enable it in one transaction conditional on the profile version read; at the cap, the same
 * transaction deletes the oldest disabled avatar. A write refused because the user's avatars
 * changed meanwhile is planned again from a fresh read. If the record is not written, the object
 * is deleted; if DynamoDB leaves the outcome unknown, the profile is fenced to settle it.
 */
export class AvatarService {
  public constructor(private readonly deps: AvatarServiceDependencies) {}

  /** Uploads an avatar for `target` and enables it. Answers 404 for a user the caller may not manage. */
  public async upload(caller: StoredCaller, target: UserTarget, request: AvatarUploadRequest): Promise<Avatar> {
    const { images, storage } = this.deps;
    // Another user's profile is checked before anything is fetched or read (an uploaded file is
    // looked up under the target's own prefix); the caller's own avatars are read while the image
    // is processed.
    const checked = target === 'current' ? undefined : await managedAvatars(this.deps.avatars, caller, target);
    const ownerId = checked?.owner.id ?? caller.userId;
    const [found, image] = await Promise.all([checked ?? ownAvatars(this.deps.avatars, caller), images.produce(request.avatar, request.crop, ownerId)]);
    const avatarId = randomUUID();
    const objectKey = avatarObjectKey({ userId: found.owner.id, avatarId, sha256: sha256Hex(image.webp) });
    try {
      await storage.put(objectKey, image.webp);
      const { record, replaced } = await this.record(caller, target, found, { avatarId, objectKey });
      if (replaced) await discardObject(storage, replaced.objectKey);
      await images.used(request.avatar, ownerId);
      return presentAvatar(record, true);
    } catch (error) {
      if (error instanceof UnsettledAvatarWriteError) {
        logger.warn('Avatar record write unsettled; the object is left to the reconciler', { objectKey, error: error.cause as Error });
        throw error.cause;
      }
      // A put that failed may still have stored the object (a timeout after S3 wrote it).
      await discardObject(storage, objectKey);
      throw error instanceof AvatarWriteCancelledError ? error.cause : error;
    }
  }

  /**
   * Writes the record of a stored object and enables it (replacing the oldest disabled avatar at
   * the cap), planning again from a fresh read (access included) while other changes of the
   * user's avatars get in the way.
   *
   * @throws UnsettledAvatarWriteError when the outcome of the last write is unknown.
   */
  private record(caller: StoredCaller, target: UserTarget, read: OwnedAvatars, object: NewObject): Promise<RecordedAvatar> {
    return retry(
      async (attempt) => this.recordOnce(attempt === 1 ? read : await managedAvatars(this.deps.avatars, caller, target), object),
      RACED_WRITE_RETRY,
    ).catch((error: unknown) => {
      throw error instanceof AvatarsChangedError ? avatarsBusy() : error;
    });
  }

  /**
   * One attempt of {@link record}, planned from `found`.
   *
   * @throws AvatarsChangedError when the user's avatars changed since `found` was read.
   */
  private async recordOnce(found: OwnedAvatars, object: NewObject): Promise<RecordedAvatar> {
    const now = new Date();
    const record: AvatarRecord = {
      userId: found.owner.id,
      avatarId: object.avatarId,
      created: creationTime(found.avatars, now).toISOString(),
      objectKey: object.objectKey,
      provider: this.deps.storage.provider,
    };
    const replaced = found.avatars.length >= this.deps.maxAvatars ? othersNewestFirst(found.avatars, found.owner.currentAvatarId).at(-1) : undefined;
    const recorded = { record, ...(replaced ? { replaced } : {}) };
    try {
      await this.deps.avatars.add(record, found.owner.version, { now, ...(replaced ? { replaced } : {}) });
      return recorded;
    } catch (error) {
      // DynamoDB cancelled the transaction, so nothing was written: there is nothing to settle.
      if (error instanceof AvatarWriteCancelledError) throw error;
      const written = await this.settle(record, found.owner.version);
      if (written === true) return recorded;
      throw written === false ? error : new UnsettledAvatarWriteError(error);
    }
  }

  /**
   * Whether a record write whose answer was lost (a timeout, a 500) took effect: true, false, or
   * undefined when DynamoDB cannot be asked. The write was conditional on `profileVersion`; moving
   * the profile past that version makes sure it can no longer take effect later, and if the
   * version had already moved, the record itself says whether it was this write that moved it.
   */
  private async settle(record: AvatarRecord, profileVersion: number): Promise<boolean | undefined> {
    try {
      if (await this.deps.avatars.fence(record.userId, profileVersion)) return false;
      return await this.deps.avatars.exists(record);
    } catch {
      return undefined;
    }
  }
}
