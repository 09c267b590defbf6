import type { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { avatarBucket } from '../../shared/storage/avatar-bucket';
import { newUploadName, uploadObjectKey, uploadSource } from './upload-name';

/**
 * Presigned S3 POST forms for a browser to send a file straight to the avatar bucket: the file never
 * passes through the API (and its 6 MB payload limit). The policy, signed by the SDK's presigned-post
 * package with the function's own credentials, pins everything the browser could change:
 * - the key, under `uploads/<user id>/`, unguessable;
 * - `content-length-range` from 1 byte to the avatar byte cap;
 * - the declared `Content-Type`, one of the image types;
 * - an expiry `avatarBucket.uploadFormSeconds` (5 minutes) ahead.
 * See https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-HTTPPOSTConstructPolicy.html.
 */

/** A presigned upload form, as the API answers it. */
export interface UploadForm {
  /** Where the browser posts the form (`multipart/form-data`, the file last, as field `file`). */
  readonly url: string;
  /** The form's fields, to be sent as they are before the file. */
  readonly fields: Record<string, string>;
  /** What to pass as `avatar` to the avatar upload once the file is stored. */
  readonly source: string;
  /** When the form stops being accepted (ISO 8601 UTC). */
  readonly expires: string;
}

/** The forms of one bucket. */
export class UploadForms {
  public constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  /** A form for user `userId` to upload one file of media type `contentType`, of at most `maxBytes` (the avatar byte cap, DESIGN.md 6). */
  public async create(userId: number, contentType: (typeof avatarBucket.uploadContentTypes)[number], maxBytes: number, now = new Date()): Promise<UploadForm> {
    const name = newUploadName(now);
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.bucket,
      Key: uploadObjectKey(userId, name),
      // Every field is also a condition of the policy (the package adds `{field: value}` for each).
      Fields: { 'Content-Type': contentType },
      Conditions: [['content-length-range', 1, maxBytes]],
      Expires: name.formExpires - Math.floor(now.getTime() / 1000),
    });
    return { url, fields, source: uploadSource(name), expires: new Date(name.formExpires * 1000).toISOString() };
  }
}
