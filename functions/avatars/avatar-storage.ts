import { createHash } from 'node:crypto';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { avatarBucket } from '../shared/storage/avatar-bucket';

/**
 * Avatar images in S3: the only code that talks to the avatar bucket. Objects are written once
 * under a content-addressed key (avatar-object-key.ts) and never changed, only deleted.
 */

/** What {@link AvatarStorage.list} reports of an object. */
export interface StoredObject {
  readonly key: string;
  readonly lastModified: Date;
}

/** Media type of every stored avatar. */
export const AVATAR_CONTENT_TYPE = 'image/webp';

/** The avatar bucket. */
export class AvatarStorage {
  /** Name of the storage, the Avatar's `provider`. */
  public readonly provider = 's3';

  public constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  /**
   * Stores an avatar image under `key`, served as WebP and cacheable for a year. `Content-MD5`
   * makes S3 refuse bytes damaged on the way rather than store them.
   */
  public async put(key: string, webp: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: webp,
        ContentLength: webp.byteLength,
        ContentMD5: createHash('md5').update(webp).digest('base64'),
        ContentType: AVATAR_CONTENT_TYPE,
        CacheControl: avatarBucket.cacheControl,
      }),
    );
  }

  /** Deletes the object under `key`; deleting a missing key succeeds, as S3 does. */
  public async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * Every object under the avatar prefix, a page at a time. Needs `s3:ListBucket`, which only the
   * reconciler has: the routes never list.
   */
  public async *list(): AsyncGenerator<StoredObject[]> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: avatarBucket.objectPrefix, ContinuationToken: token }),
      );
      // S3 always dates an object; one without a date counts as just written, which the reconciler spares.
      yield (page.Contents ?? []).flatMap((object) =>
        object.Key === undefined ? [] : [{ key: object.Key, lastModified: object.LastModified ?? new Date() }],
      );
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }
}
