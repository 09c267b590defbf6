import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { optionalEnv } from '../config';

/**
 * AWS SDK clients, built once per process from the environment. In AWS the SDK's defaults apply;
 * locally `DYNAMODB_ENDPOINT` / `S3_ENDPOINT` point at DynamoDB Local and the local S3, with
 * dummy credentials when none are configured and the endpoint is on loopback.
 */

/** Whether an endpoint URL names this machine (so dummy credentials are safe to use). */
export function isLoopbackEndpoint(endpoint: string): boolean {
  const host = new URL(endpoint).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Credentials for a loopback endpoint: the configured access key id (DynamoDB Local keeps one
 * database per key id) or a fixed local one; undefined elsewhere, so the SDK's chain applies.
 */
export function localCredentials(endpoint: string | undefined) {
  if (endpoint === undefined || !isLoopbackEndpoint(endpoint)) return undefined;
  if (process.env.AWS_ACCESS_KEY_ID) {
    return { accessKeyId: process.env.AWS_ACCESS_KEY_ID, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? 'local' };
  }
  // A fixed key id keeps the same DynamoDB Local database across runs.
  return { accessKeyId: 'local', secretAccessKey: 'local' };
}

/** Options shared by both clients: region, endpoint and, on loopback, credentials. */
function clientOptions(endpointVariable: string) {
  const endpoint = process.env[endpointVariable] || undefined;
  return {
    region: optionalEnv('AWS_REGION', 'us-east-1'),
    endpoint,
    credentials: localCredentials(endpoint),
    // A request that hangs must not hold a Lambda until its own timeout; fail fast instead.
    maxAttempts: 3,
  };
}

let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;

/** The process-wide DynamoDB document client (plain JS values in and out, `undefined` removed). */
export function getDocumentClient(): DynamoDBDocumentClient {
  documentClient ??= DynamoDBDocumentClient.from(new DynamoDBClient(clientOptions('DYNAMODB_ENDPOINT')), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

/** The process-wide S3 client; path-style and checksums "when required", which the local S3 needs. */
export function getS3Client(): S3Client {
  s3Client ??= new S3Client({
    ...clientOptions('S3_ENDPOINT'),
    forcePathStyle: process.env.S3_ENDPOINT ? true : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return s3Client;
}

/** Forget the clients, so the next call builds them from the current environment (tests switch backends). */
export function resetClients(): void {
  documentClient?.destroy();
  s3Client?.destroy();
  documentClient = undefined;
  s3Client = undefined;
}
