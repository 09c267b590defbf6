import type { StoredCaller } from '../shared/access/roles';
import { fullJitter } from '../shared/async/retry';
import { logger } from '../shared/logger';
import { toAvatarOwner, type AvatarRecord, type OwnedAvatars } from './avatar-record';
import type { AvatarRepository } from './avatar-repository';
import type { AvatarStorage } from './avatar-storage';
import { AvatarsChangedError } from './errors';

/**
 * What avatar uploads (avatar-service.ts) and deletions (avatar-removal.ts) share: where records
 * and objects are written, how a write raced by another change of the same user is tried again,
 * and how an object no record points at is let go. Deletions in a module of their own keep the
 * delete route's bundle free of the upload path.
 */

/** Where avatar records and image objects are written. */
export interface AvatarWriteDependencies {
  readonly avatars: AvatarRepository;
  readonly storage: AvatarStorage;
}

/**
 * A record write that other changes of the same user keep invalidating is planned again from a
 * fresh read, up to 8 times, after a short random pause that grows with each attempt, so that
 * racing requests spread out.
 */
export const RACED_WRITE_RETRY = {
  attempts: 8,
  delayMs: (attempt: number) => 15 * attempt,
  jitter: fullJitter,
  retryable: (error: unknown) => error instanceof AvatarsChangedError,
} as const;

/** The avatars but `avatarId`, newest first. */
export function othersNewestFirst(avatars: readonly AvatarRecord[], avatarId: string | null): AvatarRecord[] {
  return avatars.filter((avatar) => avatar.avatarId !== avatarId).sort((a, b) => b.created.localeCompare(a.created));
}

/** The caller's own avatars, its profile taken from the request's read of it. */
export async function ownAvatars(avatars: AvatarRepository, caller: StoredCaller): Promise<OwnedAvatars> {
  return { owner: toAvatarOwner(caller.profile), avatars: await avatars.avatarsOf(caller.userId) };
}

/** Deletes an object no record points at; a failure is logged and left to the reconciler. */
export async function discardObject(storage: AvatarStorage, objectKey: string): Promise<void> {
  try {
    await storage.delete(objectKey);
  } catch (error) {
    logger.warn('Avatar object without a record left to the reconciler', { objectKey, error: error as Error });
  }
}
