import { BucketAlreadyOwnedByYou, CreateBucketCommand, HeadBucketCommand, NotFound, type S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { ProvisionOutcome } from './table-provisioning';

/**
 * Creates the avatar bucket on the local S3. Its lifecycle rule (aborting unfinished multipart
 * uploads) is left to the stack: s3rver does not apply lifecycle rules.
 */

function isMissingBucket(error: unknown): boolean {
  return error instanceof NotFound || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}

/** Creates the bucket unless it exists. Safe to run concurrently. */
export async function provisionBucket(client: S3Client, name: string): Promise<ProvisionOutcome> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: name }));
    return 'existed';
  } catch (error) {
    if (!isMissingBucket(error)) throw error;
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: name }));
    return 'created';
  } catch (error) {
    // Another process provisioning the same endpoint got there first.
    if (error instanceof BucketAlreadyOwnedByYou || (error instanceof S3ServiceException && error.name === 'BucketAlreadyExists')) return 'existed';
    throw error;
  }
}
