/**
 * The one description of the avatar bucket that the CDK stack and the local set-up read.
 *
 * Every avatar image is stored once, directly under its final key
 * `avatars/<user id>/<avatar id>/<sha256>.webp` (functions/avatars/avatar-object-key.ts), with an
 * immutable Cache-Control, and is never changed: only deleted with its record. An upload puts the
 * object before it writes the record and a deletion removes the record before the object, so a
 * crash in between can only leave an object without a record; the scheduled reconciler
 * (functions/avatars/reconcile-avatar-objects.ts) deletes those.
 */
export const avatarBucket = {
  /** Logical id in the stack and the bucket name locally. */
  id: 'avatars',
  /** Environment variable that carries the deployed bucket name to the functions. */
  nameEnv: 'AVATAR_BUCKET_NAME',
  /**
   * Prefix of every avatar object (`avatars/<user id>/<avatar id>/<sha256>.webp`): the only prefix
   * the functions may touch and CloudFront may serve.
   */
  objectPrefix: 'avatars/',
  /** Cache-Control of stored avatars: their key holds a hash of their content, so they never change. */
  cacheControl: 'public, max-age=31536000, immutable',
} as const;
