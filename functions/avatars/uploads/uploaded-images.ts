import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { UnprocessableError } from '../../shared/errors';
import { logger } from '../../shared/logger';
import type { UploadReadOutcome } from '../../shared/observability/metric-catalog';
import { recordUploadRead } from '../../shared/observability/metrics';
import { avatarBucket } from '../../shared/storage/avatar-bucket';
import { readLimited } from '../fetch/read-body';
import { parseUploadSource, uploadObjectKey } from './upload-name';

/**
 * The files browsers posted with an upload form, read through the SDK (no HTTP fetch, so no
 * address to check) and deleted once used. Whatever the store enforced of the form's policy, the
 * reader checks again: the byte cap while the bytes stream in, that the file arrived before its form
 * expired, and that it is not older than an upload may live.
 */

/** Seconds after a form's expiry in which its file may still finish arriving (a slow link sends 10 MB for a while). */
export const UPLOAD_ARRIVAL_GRACE_SECONDS = 300;

const DAY_MS = 24 * 60 * 60 * 1000;

/** 422 `upload_not_found`, the one answer for every source that names no usable file of this user. */
function uploadNotFound(reason: string): UnprocessableError {
  return new UnprocessableError('upload_not_found', `The upload named by \`avatar\` ${reason}. Ask for a new upload form and post the file again.`, [
    { name: 'avatar', reason: 'names no usable upload of this user' },
  ]);
}

/**
 * What S3's refusal of an upload's read says, if it says the upload is not there. The upload
 * routes may get and delete objects under the upload prefix but not list them, and to a caller
 * without `s3:ListBucket` S3 answers a GetObject of a missing key 403 AccessDenied, not 404
 * NoSuchKey (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html, "Permissions").
 * Their policy allows GetObject on every key under the prefix (test/lib/function-grants-coverage.test.ts
 * replays this read against it), so to this read AccessDenied means missing (`denied`). Listing is
 * not granted instead: it would let every upload route enumerate every user's pending upload keys,
 * and whether S3 then answers 404 under a prefix-scoped `s3:ListBucket` is not documented. The
 * local S3 enforces no IAM and answers 404 (`missing`): both mean the same here.
 */
function missingAs(error: unknown): Exclude<UploadReadOutcome, 'read'> | undefined {
  if (!(error instanceof S3ServiceException)) return undefined;
  const status = error.$metadata.httpStatusCode;
  if (error instanceof NoSuchKey || status === 404) return 'missing';
  return status === 403 && error.name === 'AccessDenied' ? 'denied' : undefined;
}

/**
 * A 403 read as missing is also what every read gets once a policy regression denies GetObject: it
 * is logged with S3's own message (in the same account S3 names the policy that denied,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/troubleshoot-403-errors.html), and counted
 * (UploadReads, outcome `denied`: the stack alarms when reads are denied and none succeeds).
 */
function logDenied(key: string, error: S3ServiceException): void {
  logger.warn('Upload read denied by S3, taken as missing', { key, s3Code: error.name, s3Message: error.message, s3RequestId: error.$metadata.requestId });
}

/** The uploads of one bucket. */
export class UploadedImages {
  public constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  /**
   * The bytes of user `userId`'s upload `source`, at most `maxBytes`.
   *
   * @throws UnprocessableError 422 `upload_not_found` for a source that is malformed, missing (never
   *   posted, already used, removed by the lifecycle rule, or another user's), stored after its form
   *   expired, or older than `avatarBucket.uploadLifetimeDays`.
   * @throws PayloadTooLargeError (413) for a file over `maxBytes`.
   */
  public async read(userId: number, source: string, maxBytes: number, now = new Date()): Promise<Buffer> {
    const name = parseUploadSource(source);
    if (!name) throw uploadNotFound('is not a source an upload form gave out');
    const key = uploadObjectKey(userId, name);
    let object;
    try {
      object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      const missing = missingAs(error);
      if (missing === undefined) throw error;
      if (missing === 'denied') logDenied(key, error as S3ServiceException);
      recordUploadRead(missing);
      throw uploadNotFound('was not found: it was never posted, was already used, or has expired');
    }
    recordUploadRead('read');
    const body = object.Body as Readable;
    const stored = object.LastModified?.getTime() ?? now.getTime();
    if (stored > (name.formExpires + UPLOAD_ARRIVAL_GRACE_SECONDS) * 1000) {
      body.destroy();
      throw uploadNotFound('was stored after its upload form had expired');
    }
    if (now.getTime() - stored > avatarBucket.uploadLifetimeDays * DAY_MS) {
      body.destroy();
      throw uploadNotFound('has expired');
    }
    return readLimited(body, object.ContentLength, maxBytes);
  }

  /**
   * Deletes user `userId`'s upload `source` (nothing for a malformed one). A failure is logged, not
   * thrown: the avatar is already decided, and the lifecycle rule removes the file within a day.
   */
  public async discard(userId: number, source: string): Promise<void> {
    const name = parseUploadSource(source);
    if (!name) return;
    const key = uploadObjectKey(userId, name);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      logger.warn('Used upload left to the lifecycle rule', { key, error: error as Error });
    }
  }
}
