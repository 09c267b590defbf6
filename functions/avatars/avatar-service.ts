import { randomUUID } from 'node:crypto';
import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { fullJitter, retry } from '../shared/async/retry';
import { NotFoundError } from '../shared/errors';
import { logger } from '../shared/logger';
import { managedAvatars } from './avatar-access';
import { avatarObjectKey, sha256Hex } from './avatar-object-key';
import { presentAvatar } from './avatar-presenter';
import { toAvatarOwner, type AvatarRecord, type OwnedAvatars } from './avatar-record';
import type { AvatarRepository } from './avatar-repository';
import type { AvatarStorage } from './avatar-storage';
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
export interface AvatarServiceDependencies {
  readonly avatars: AvatarRepository;
  readonly storage: AvatarStorage;
  /** Most avatars a user holds: an upload beyond it replaces the oldest disabled one. */
  readonly maxAvatars: number;
  /** Only the upload routes have one: the delete route does not ship the image library. */
  readonly images?: AvatarImageSource;
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
 * A record write that other changes of the same user keep invalidating is planned again from a
 * fresh read, up to 8 times, after a short random pause that grows with each attempt, so that
 * racing requests spread out.
 */
const RACED_WRITE_RETRY = {
  attempts: 8,
  delayMs: (attempt: number) => 15 * attempt,
  jitter: fullJitter,
  retryable: (error: unknown) => error instanceof AvatarsChangedError,
} as const;

/**
 * A timestamp after every existing avatar's, so that the newest avatar (the enabled one) is also
 * the last one listed as created, even when clocks or requests collide within a millisecond.
 */
function creationTime(existing: readonly AvatarRecord[], now: Date): Date {
  const newest = Math.max(0, ...existing.map((avatar) => Date.parse(avatar.created)));
  return new Date(Math.max(now.getTime(), newest + 1));
}

/** The avatars but `avatarId`, newest first. */
function othersNewestFirst(avatars: readonly AvatarRecord[], avatarId: string | null): AvatarRecord[] {
  return avatars.filter((avatar) => avatar.avatarId !== avatarId).sort((a, b) => b.created.localeCompare(a.created));
}

/**
 * Avatar uploads and deletions, keeping the image objects and the records consistent:
 *
 * - Upload: check access to another user's profile (404 before anything is fetched; the caller's
 *   own was read with the request), put the object under its content-addressed key, then record it
 *   and enable it in one transaction conditional on the profile version read; at the cap, the same
 *   transaction deletes the oldest disabled avatar. A write refused because the user's avatars
 *   changed meanwhile is planned again from a fresh read. If the record is not written, the object
 *   is deleted; if DynamoDB leaves the outcome unknown, the profile is fenced to settle it.
 * - Delete: delete the record (and enable the next newest avatar, if it was the enabled one) in
 *   one transaction, then the object. A failure after the record is gone leaves an object without
 *   a record, which the reconciler deletes; never a record without its object.
 */
export class AvatarService {
  public constructor(private readonly deps: AvatarServiceDependencies) {}

  /** Uploads an avatar for `target` and enables it. Answers 404 for a user the caller may not manage. */
  public async upload(caller: StoredCaller, target: UserTarget, request: AvatarUploadRequest): Promise<Avatar> {
    const { images, storage } = this.deps;
    if (!images) throw new Error('This function was built without the avatar image pipeline.');
    // Another user's profile is checked before anything is fetched or read (an uploaded file is
    // looked up under the target's own prefix); the caller's own avatars are read while the image
    // is processed.
    const checked = target === 'current' ? undefined : await managedAvatars(this.deps.avatars, caller, target);
    const ownerId = checked?.owner.id ?? caller.userId;
    const [found, image] = await Promise.all([checked ?? this.ownAvatars(caller), images.produce(request.avatar, request.crop, ownerId)]);
    const avatarId = randomUUID();
    const objectKey = avatarObjectKey({ userId: found.owner.id, avatarId, sha256: sha256Hex(image.webp) });
    try {
      await storage.put(objectKey, image.webp);
      const { record, replaced } = await this.record(caller, target, found, { avatarId, objectKey });
      if (replaced) await this.discard(replaced.objectKey);
      await images.used(request.avatar, ownerId);
      return presentAvatar(record, true);
    } catch (error) {
      if (error instanceof UnsettledAvatarWriteError) {
        logger.warn('Avatar record write unsettled; the object is left to the reconciler', { objectKey, error: error.cause as Error });
        throw error.cause;
      }
      // A put that failed may still have stored the object (a timeout after S3 wrote it).
      await this.discard(objectKey);
      throw error instanceof AvatarWriteCancelledError ? error.cause : error;
    }
  }

  /** Deletes the caller's avatar `avatarId`; 404 when the caller has no such avatar. */
  public async remove(caller: StoredCaller, avatarId: string): Promise<void> {
    const id = avatarId.toLowerCase();
    const removed = await retry(async (attempt) => {
      const found = attempt === 1 ? await this.ownAvatars(caller) : await managedAvatars(this.deps.avatars, caller, 'current');
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
    await this.discard(removed.objectKey);
  }

  /** The caller's own avatars, its profile taken from the request's read of it. */
  private async ownAvatars(caller: StoredCaller): Promise<OwnedAvatars> {
    return { owner: toAvatarOwner(caller.profile), avatars: await this.deps.avatars.avatarsOf(caller.userId) };
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

  /** Deletes an object no record points at; a failure is logged and left to the reconciler. */
  private async discard(objectKey: string): Promise<void> {
    try {
      await this.deps.storage.delete(objectKey);
    } catch (error) {
      logger.warn('Avatar object without a record left to the reconciler', { objectKey, error: error as Error });
    }
  }
}
