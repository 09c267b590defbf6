import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { type ClientConfig, dataConfig } from '../config/data-config';
import { traced } from '../observability/tracing';

/**
 * The one factory of the service's AWS SDK clients: the functions' process-wide clients, built once
 * from the data configuration, their calls traced by X-Ray in Lambda (observability/tracing.ts),
 * and the clients the local set-up provisions with. Locally the endpoints point at DynamoDB Local
 * and the local S3, with the configured (or dummy) credentials, as long as the endpoint is on
 * loopback; the same region and key id everywhere, since DynamoDB Local keeps one database per
 * access key id and region.
 */

/** Time limits of a client's requests: connect and answer per attempt, and attempts. */
export interface ClientLimits {
  readonly connectionTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxAttempts: number;
}

/**
 * Time limits of every request a function sends: a dependency that hangs fails the request (503
 * with Retry-After) well within the function's own timeout (10 s): at most 2 attempts of 1 s to
 * connect and 3 s to answer each.
 */
export const CLIENT_LIMITS = { connectionTimeoutMs: 1000, requestTimeoutMs: 3000, maxAttempts: 2 } as const satisfies ClientLimits;

/** Where a client connects and as whom, and its time limits (the SDK's own without them). */
export interface ClientTarget {
  readonly region: string;
  readonly endpoint?: string;
  readonly accessKey?: ClientConfig['accessKey'];
  readonly limits?: ClientLimits;
}

/** Whether an endpoint URL names this machine (so dummy credentials are safe to use). */
export function isLoopbackEndpoint(endpoint: string): boolean {
  const host = new URL(endpoint).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Credentials for a loopback endpoint: the configured access key id (DynamoDB Local keeps one
 * database per key id) or a fixed local one; undefined elsewhere, so the SDK's chain applies.
 */
export function localCredentials(endpoint: string | undefined, accessKey?: ClientConfig['accessKey']) {
  if (endpoint === undefined || !isLoopbackEndpoint(endpoint)) return undefined;
  // A fixed key id keeps the same DynamoDB Local database across runs.
  return { accessKeyId: accessKey?.id ?? 'local', secretAccessKey: accessKey?.secret ?? 'local' };
}

/** Options every client of the service is built with: region, endpoint, on loopback the credentials, and its limits. */
export function clientOptions(target: ClientTarget) {
  const { limits } = target;
  return {
    region: target.region,
    endpoint: target.endpoint,
    credentials: localCredentials(target.endpoint, target.accessKey),
    ...(limits === undefined
      ? {}
      : { maxAttempts: limits.maxAttempts, requestHandler: { connectionTimeout: limits.connectionTimeoutMs, requestTimeout: limits.requestTimeoutMs } }),
  };
}

/** A low-level DynamoDB client for `target`. */
export function createDynamoDbClient(target: ClientTarget): DynamoDBClient {
  return new DynamoDBClient(clientOptions(target));
}

/** An S3 client for `target`: path-style on a given endpoint, and checksums "when required", which the local S3 needs. */
export function createS3Client(target: ClientTarget): S3Client {
  return new S3Client({
    ...clientOptions(target),
    forcePathStyle: target.endpoint ? true : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

let dynamoDbClient: DynamoDBClient | undefined;
let documentClient: DynamoDBDocumentClient | undefined;
let s3Client: S3Client | undefined;

/**
 * The process-wide low-level DynamoDB client, traced: the document client sends through it, and so
 * does a library that takes a client of its own (Powertools Idempotency), so one connection pool
 * and one set of limits serve the whole function.
 */
export function getDynamoDbClient(): DynamoDBClient {
  const config = dataConfig();
  dynamoDbClient ??= traced(createDynamoDbClient({ ...config, endpoint: config.dynamodbEndpoint, limits: CLIENT_LIMITS }));
  return dynamoDbClient;
}

/** The process-wide DynamoDB document client (plain JS values in and out, `undefined` removed). */
export function getDocumentClient(): DynamoDBDocumentClient {
  // The base client is the one traced: the document client sends through its middleware stack.
  documentClient ??= DynamoDBDocumentClient.from(getDynamoDbClient(), { marshallOptions: { removeUndefinedValues: true } });
  return documentClient;
}

/** The process-wide S3 client. */
export function getS3Client(): S3Client {
  const config = dataConfig();
  s3Client ??= traced(createS3Client({ ...config, endpoint: config.s3Endpoint, limits: CLIENT_LIMITS }));
  return s3Client;
}

/** Forget the clients, so the next call builds them from the current configuration (tests switch back-ends). */
export function resetClients(): void {
  documentClient?.destroy();
  dynamoDbClient?.destroy();
  s3Client?.destroy();
  documentClient = undefined;
  dynamoDbClient = undefined;
  s3Client = undefined;
}
