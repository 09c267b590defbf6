import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { localCredentials } from '../../functions/shared/aws/clients';
import { optionalEnv } from '../environment-variables';

/** The access key the functions use on loopback (their data configuration reads the same variables). */
function accessKey() {
  const id = process.env.AWS_ACCESS_KEY_ID;
  return id ? { id, ...(process.env.AWS_SECRET_ACCESS_KEY ? { secret: process.env.AWS_SECRET_ACCESS_KEY } : {}) } : undefined;
}

/**
 * SDK clients for provisioning a given endpoint. They must use the same region and access key id as
 * the functions' clients (functions/shared/aws/clients.ts): DynamoDB Local keeps one database per
 * access key id and region, so provisioning under another key would create tables nobody reads.
 */

/** A low-level DynamoDB client for `endpoint` (table management is not in the document client). */
export function provisioningDynamoDbClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ region: optionalEnv('AWS_REGION', 'us-east-1'), endpoint, credentials: localCredentials(endpoint, accessKey()) });
}

/** An S3 client for `endpoint`, with the path-style and checksum settings the local S3 needs. */
export function provisioningS3Client(endpoint: string): S3Client {
  return new S3Client({
    region: optionalEnv('AWS_REGION', 'us-east-1'),
    endpoint,
    credentials: localCredentials(endpoint, accessKey()),
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
