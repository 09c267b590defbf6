import { randomUUID } from 'node:crypto';
import { avatarBucket } from '../../shared/storage/avatar-bucket';

/**
 * How an upload of a file is named: the `source` a client passes back as `avatar`, and the object
 * key it stands for, `uploads/<user id>/<expires>.<random uuid>`.
 *
 * - The user id is not in the source but taken from the route's target user, so a source is only
 *   ever looked up under that user's prefix: another user's source names nothing there.
 * - The random part (122 bits) makes a key unguessable; the policy of the presigned form pins it.
 * - The form's expiry (epoch seconds) is in both, so the service can refuse a file stored after its
 *   form expired even on a store that does not enforce policies (the local S3 does not).
 */

/** What an upload's source holds. */
export interface UploadName {
  /** When the presigned form expires, in epoch seconds. */
  readonly formExpires: number;
  readonly token: string;
}

/** Scheme of an upload's `source`: an absolute URI that no image address can be mistaken for. */
export const UPLOAD_SCHEME = 'upload:';

const SOURCE_PATTERN = /^upload:(\d{10})\.([0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})$/;

/** A new upload whose form expires `avatarBucket.uploadFormSeconds` after `now`. */
export function newUploadName(now: Date): UploadName {
  return { formExpires: Math.floor(now.getTime() / 1000) + avatarBucket.uploadFormSeconds, token: randomUUID() };
}

/** The `source` of an upload: `upload:<expires>.<uuid>`. */
export function uploadSource(name: UploadName): string {
  return `${UPLOAD_SCHEME}${name.formExpires}.${name.token}`;
}

/** Whether `value` is meant as an upload's source (rather than an image address), well-formed or not. */
export function isUploadSource(value: string): boolean {
  return value.startsWith(UPLOAD_SCHEME);
}

/** The upload a source names, or null for a value that no presigned form ever handed out. */
export function parseUploadSource(source: string): UploadName | null {
  const match = SOURCE_PATTERN.exec(source);
  return match ? { formExpires: Number(match[1]), token: match[2] as string } : null;
}

/** The object key of user `userId`'s upload `name`. */
export function uploadObjectKey(userId: number, name: UploadName): string {
  return `${avatarBucket.uploadPrefix}${userId}/${name.formExpires}.${name.token}`;
}
