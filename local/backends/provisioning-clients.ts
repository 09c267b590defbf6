import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { isLoopbackEndpoint } from '../../functions/shared/aws/clients';
import { optionalEnv } from '../../functions/shared/config';

/**
 * SDK clients for provisioning a given endpoint. They must use the same region and access key id as
 * the functions' clients (functions/shared/aws/clients.ts): DynamoDB Local keeps one database per
 * access key id and region, so provisioning under another key would create tables nobody reads.
 */

function credentialsFor(endpoint: string) {
  if (!isLoopbackEndpoint(endpoint)) return undefined;
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  if (accessKeyId) return { accessKeyId, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local' };
  return { accessKeyId: 'local', secretAccessKey: 'local' };
}

/** A low-level DynamoDB client for `endpoint` (table management is not in the document client). */
export function provisioningDynamoDbClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ region: optionalEnv('AWS_REGION', 'us-east-1'), endpoint, credentials: credentialsFor(endpoint) });
}

/** An S3 client for `endpoint`, with the path-style and checksum settings the local S3 needs. */
export function provisioningS3Client(endpoint: string): S3Client {
  return new S3Client({
    region: optionalEnv('AWS_REGION', 'us-east-1'),
    endpoint,
    credentials: credentialsFor(endpoint),
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
