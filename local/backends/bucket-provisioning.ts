import { BucketAlreadyOwnedByYou, CreateBucketCommand, HeadBucketCommand, NotFound, PutBucketCorsCommand, type S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { CORS_ORIGINS_ENV } from '../../functions/shared/http/cors-policy';
import { uploadCorsRules } from '../../functions/shared/storage/avatar-bucket';
import { withLocalDefaults } from '../local-defaults';
import type { ProvisionOutcome } from './table-provisioning';

/**
 * Creates the avatar bucket on the local S3 and gives it the stack's CORS rule for the local run's
 * origins, so that a page on a dev server can post an upload form. Its lifecycle rules (unfinished
 * multipart uploads, unused upload files) are left to the stack: s3rver does not apply lifecycle
 * rules, and the service refuses an upload file older than a day whatever the store keeps.
 */

function isMissingBucket(error: unknown): boolean {
  return error instanceof NotFound || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
}

/** The origins of this local run (`CORS_ALLOWED_ORIGINS`, else the local default: dev-server origins on loopback). */
function localOrigins(env: NodeJS.ProcessEnv): string[] {
  const configured = withLocalDefaults(env)[CORS_ORIGINS_ENV] ?? '';
  return configured.split(',').map((origin) => origin.trim()).filter((origin) => origin !== '');
}

/** Creates the bucket unless it exists, then sets its CORS rule. Safe to run concurrently. */
export async function provisionBucket(client: S3Client, name: string, env: NodeJS.ProcessEnv = process.env): Promise<ProvisionOutcome> {
  const outcome = await createBucket(client, name);
  const rules = uploadCorsRules(localOrigins(env));
  await client.send(
    new PutBucketCorsCommand({
      Bucket: name,
      CORSConfiguration: {
        CORSRules: rules.map((rule) => ({
          AllowedOrigins: rule.allowedOrigins,
          AllowedMethods: rule.allowedMethods,
          AllowedHeaders: rule.allowedHeaders,
          MaxAgeSeconds: rule.maxAgeSeconds,
        })),
      },
    }),
  );
  return outcome;
}

async function createBucket(client: S3Client, name: string): Promise<ProvisionOutcome> {
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
