import { AVATAR_BUCKET_NAME } from './bucket-names';

/**
 * The one description of the avatar bucket that the CDK stack and the local set-up read.
 *
 * Every avatar image is stored once, directly under its final key
 * `avatars/<user id>/<avatar id>/<sha256>.webp` (functions/avatars/avatar-object-key.ts), with an
 * immutable Cache-Control for browsers and a short one for shared caches, and is never changed:
 * only deleted with its record. An upload puts the
 * object before it writes the record and a deletion removes the record before the object, so a
 * crash in between can only leave an object without a record; the scheduled reconciler
 * (functions/avatars/reconcile-avatar-objects.ts) deletes those.
 */
export const avatarBucket = {
  /** Logical id in the stack and the bucket name locally (`id`), and the variable that carries the deployed name (`nameEnv`). */
  ...AVATAR_BUCKET_NAME,
  /**
   * Prefix of every avatar object (`avatars/<user id>/<avatar id>/<sha256>.webp`): the only prefix
   * the functions may touch and CloudFront may serve.
   */
  objectPrefix: 'avatars/',
  /**
   * Seconds a shared cache (CloudFront, a proxy) may serve an avatar before it asks the bucket
   * again: how long a deleted avatar can still be fetched. The CDN's cache policy caps its own
   * lifetime at this (lib/constructs/avatar-storage.ts), objects stored before included.
   */
  sharedCacheSeconds: 300,
  /**
   * Cache-Control of stored avatars: their key holds a hash of their content, so a browser may keep
   * one a year without asking again (`immutable`); shared caches only `s-maxage`, so that a deletion
   * reaches every viewer who has not fetched the image yet within minutes.
   */
  cacheControl: 'public, max-age=31536000, s-maxage=300, immutable',
  /**
   * Prefix of the files browsers post straight to the bucket (`uploads/<user id>/<name>`), each
   * read once by an avatar upload and then deleted. CloudFront never serves it.
   */
  uploadPrefix: 'uploads/',
  /** Seconds a presigned upload form may be posted: long enough to pick and send a file, short enough that a leaked form is soon worthless. */
  uploadFormSeconds: 300,
  /** Days an upload nobody used stays in the bucket before the lifecycle rule removes it; the service refuses it after that too. */
  uploadLifetimeDays: 1,
  /**
   * Upload forms one user is given per day (UTC), whoever asks for them: what bounds the files a
   * user can have stored at once, as each form stores at most one file of at most the byte cap.
   */
  uploadFormsPerDay: 20,
  /** Media types a browser may declare for an upload (the service sniffs the bytes whatever the declared type). */
  uploadContentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
} as const;

/** One CORS rule of the bucket, as S3's `PutBucketCors` and the CDK's bucket `cors` both take it. */
export interface UploadCorsRule {
  readonly allowedOrigins: string[];
  readonly allowedMethods: ['POST'];
  readonly allowedHeaders: string[];
  readonly maxAgeSeconds: number;
}

/**
 * The bucket's CORS rule: the browsers of the API's origins (DESIGN.md 5a) may post an upload form
 * and nothing else; reads of avatars are plain image loads that need no CORS. S3 takes one `*` in an
 * origin, as the local dev-server patterns (`http://localhost:*`) use it
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ManageCorsUsing.html). No rule without
 * origins: then no page may post.
 */
export function uploadCorsRules(origins: readonly string[]): UploadCorsRule[] {
  if (origins.length === 0) return [];
  return [{ allowedOrigins: [...origins], allowedMethods: ['POST'], allowedHeaders: ['*'], maxAgeSeconds: 600 }];
}
