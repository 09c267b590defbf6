/**
 * The one description of the avatar bucket that the CDK stack and the local set-up read.
 */
export const avatarBucket = {
  /** Logical id in the stack and the bucket name locally. */
  id: 'avatars',
  /** Environment variable that carries the deployed bucket name to the functions. */
  nameEnv: 'AVATAR_BUCKET_NAME',
  /** Prefix under which avatar objects are stored, content-addressed: `avatars/<sha256>.webp`. */
  objectPrefix: 'avatars/',
  /**
   * Objects are written under this prefix first and only promoted once the record is written; a
   * crash in between leaves an object here, which the lifecycle rule expires.
   */
  pendingPrefix: 'pending/',
  /** Days after which a pending object is expired by the lifecycle rule. */
  pendingExpirationDays: 1,
  /** Cache-Control of stored avatars: their key holds a hash of their content, so they never change. */
  cacheControl: 'public, max-age=31536000, immutable',
} as const;
