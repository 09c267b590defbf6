import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { dataConfig, type DataConfig } from '../config/data-config';
import { traced } from '../observability/tracing';

/**
 * AWS SDK clients, built once per process from the data configuration, their calls traced by X-Ray
 * in Lambda (observability/tracing.ts). Locally the endpoints point at DynamoDB Local and the local
 * S3, with the configured (or dummy) credentials, as long as the endpoint is on loopback.
 */

/**
 * Time limits of every request: a dependency that hangs fails the request (503 with Retry-After)
 * well within the function's own timeout (10 s): at most 2 attempts of 1 s to connect and 3 s to
 * answer each.
 */
export const CLIENT_LIMITS = { connectionTimeoutMs: 1000, requestTimeoutMs: 3000, maxAttempts: 2 } as const;

/** Whether an endpoint URL names this machine (so dummy credentials are safe to use). */
export function isLoopbackEndpoint(endpoint: string): boolean {
  const host = new URL(endpoint).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Credentials for a loopback endpoint: the configured access key id (DynamoDB Local keeps one
 * database per key id) or a fixed local one; undefined elsewhere, so the SDK's chain applies.
 */
export function localCredentials(endpoint: string | undefined, accessKey?: DataConfig['accessKey']) {
  if (endpoint === undefined || !isLoopbackEndpoint(endpoint)) return undefined;
  // A fixed key id keeps the same DynamoDB Local database across runs.
  return { accessKeyId: accessKey?.id ?? 'local', secretAccessKey: accessKey?.secret ?? 'local' };
}

/** Options shared by both clients: region, endpoint, time limits and, on loopback, credentials. */
function clientOptions(config: DataConfig, endpoint: string | undefined) {
  return {
    region: config.region,
    endpoint,
    credentials: localCredentials(endpoint, config.accessKey),
    maxAttempts: CLIENT_LIMITS.maxAttempts,
    requestHandler: { connectionTimeout: CLIENT_LIMITS.connectionTimeoutMs, requestTimeout: CLIENT_LIMITS.requestTimeoutMs },
  };
}

let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;

/** The process-wide DynamoDB document client (plain JS values in and out, `undefined` removed). */
export function getDocumentClient(): DynamoDBDocumentClient {
  const config = dataConfig();
  // The base client is the one traced: the document client sends through its middleware stack.
  documentClient ??= DynamoDBDocumentClient.from(traced(new DynamoDBClient(clientOptions(config, config.dynamodbEndpoint))), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return documentClient;
}

/** The process-wide S3 client; path-style and checksums "when required", which the local S3 needs. */
export function getS3Client(): S3Client {
  const config = dataConfig();
  s3Client ??= traced(
    new S3Client({
      ...clientOptions(config, config.s3Endpoint),
      forcePathStyle: config.s3Endpoint ? true : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
  );
  return s3Client;
}

/** Forget the clients, so the next call builds them from the current configuration (tests switch back-ends). */
export function resetClients(): void {
  documentClient?.destroy();
  s3Client?.destroy();
  documentClient = undefined;
  s3Client = undefined;
}
