import { createHash } from 'node:crypto';
import { avatarBucket } from '../shared/storage/avatar-bucket';

/**
 * Where an avatar's image lives in the bucket: `avatars/<user id>/<avatar id>/<sha256>.webp`.
 *
 * - The SHA-256 of the WebP bytes is in the key, so a URL names exactly one content: it never
 *   changes and is cached for a year (`Cache-Control: immutable`), and anyone can check the bytes.
 * - The avatar id is in the key too, so every record has an object of its own. Two records never
 *   share an object, even for the same image uploaded twice: deleting one record may delete its
 *   object at once, with no reference count that S3 could not update atomically with a concurrent
 *   upload of the same bytes. The cost is a duplicate ~30 KB object now and then.
 * - The user id comes first, so the key alone names the record it belongs to
 *   (`USER#<user id>` / `AVATAR#<avatar id>`): the reconciler checks an object with one read.
 */

/** The parts an avatar object key is made of. */
export interface AvatarObjectName {
  readonly userId: number;
  readonly avatarId: string;
  /** Hex SHA-256 of the stored WebP bytes. */
  readonly sha256: string;
}

const KEY_PATTERN = /^(\d{1,16})\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([0-9a-f]{64})\.webp$/;

/** Hex SHA-256 of `bytes`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The object key of an avatar. */
export function avatarObjectKey(name: AvatarObjectName): string {
  return `${avatarBucket.objectPrefix}${name.userId}/${name.avatarId}/${name.sha256}.webp`;
}

/** The parts of an avatar object key, or null for a key this service did not write. */
export function parseAvatarObjectKey(key: string): AvatarObjectName | null {
  if (!key.startsWith(avatarBucket.objectPrefix)) return null;
  const match = KEY_PATTERN.exec(key.slice(avatarBucket.objectPrefix.length));
  if (!match) return null;
  const userId = Number(match[1]);
  return Number.isSafeInteger(userId) ? { userId, avatarId: match[2] as string, sha256: match[3] as string } : null;
}
