import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { getDynamoDbClient } from '../aws/clients';
import { tableName } from '../config/data-config';
import { lazy } from '../lazy';
import { IDEMPOTENCY_ATTRIBUTES, IDEMPOTENCY_RECORD_PREFIX, idempotencyTable } from '../tables/idempotency-table';
import { IDEMPOTENCY_KEY_RETENTION_SECONDS } from './idempotency-key';

/**
 * Where requests made with an `Idempotency-Key` are recorded: Powertools Idempotency with its
 * DynamoDB persistence layer, on the function's own traced client, in the idempotency table.
 */

/** A request made with a key, as Powertools hashes it: the record is `[caller, key]`, the fingerprint `request`. */
export interface KeyedRequest {
  /** The caller's user id: two users' equal keys name two records. */
  readonly caller: number;
  readonly key: string;
  /** What the key was first sent with; a later request with the same key must match it (else 422). */
  readonly request: {
    readonly operation: string;
    readonly path: unknown;
    readonly query: unknown;
    readonly body: unknown;
    /** The `If-Match` of a route that reads it, when sent. */
    readonly ifMatch?: string;
  };
}

/** An answer as stored and replayed: the body as the JSON text first sent, so a replay is byte for byte the same. */
export interface StoredAnswer {
  readonly statusCode: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The work of a keyed request: it runs at most once per caller and key while the record lives. */
export type KeyedWork = () => Promise<StoredAnswer>;

/**
 * Runs `work` once for a caller and key, or returns the answer stored for them. Built on
 * `makeIdempotent` rather than the middy middleware `makeHandlerIdempotent`: in
 * @aws-lambda-powertools/idempotency 2.35.0 the middleware's `onError` deletes the record of a
 * request it refused (in progress, or another payload), so a third attempt would run the work again
 * (https://github.com/aws-powertools/powertools-lambda-typescript/issues/5675); the wrapper deletes
 * only when the work itself fails. The Lambda context passed along sets how long an unfinished
 * request holds its key: until the function's own deadline.
 */
export const keyedRequests = /* @__PURE__ */ lazy(() => {
  const persistenceStore = new DynamoDBPersistenceLayer({
    tableName: tableName(idempotencyTable),
    awsSdkV3Client: getDynamoDbClient(),
    keyAttr: IDEMPOTENCY_ATTRIBUTES.id,
    expiryAttr: IDEMPOTENCY_ATTRIBUTES.expiry,
    statusAttr: IDEMPOTENCY_ATTRIBUTES.status,
    inProgressExpiryAttr: IDEMPOTENCY_ATTRIBUTES.inProgressExpiry,
    validationKeyAttr: IDEMPOTENCY_ATTRIBUTES.validation,
    dataAttr: IDEMPOTENCY_ATTRIBUTES.answer,
  });
  const config = new IdempotencyConfig({
    eventKeyJmesPath: '[caller, key]',
    payloadValidationJmesPath: 'request',
    throwOnNoIdempotencyKey: true,
    expiresAfterSeconds: IDEMPOTENCY_KEY_RETENTION_SECONDS,
    // A key is chosen by the client: a collision-resistant hash keeps one caller's records out of another's reach.
    hashFunction: 'sha256',
  });
  return makeIdempotent((_request: KeyedRequest, _context: Context, work: KeyedWork) => work(), {
    persistenceStore,
    config,
    keyPrefix: IDEMPOTENCY_RECORD_PREFIX,
  });
});
