/**
 * The data each deployed function may touch, declared beside its definition (route table,
 * authorizer, scheduled and queue functions) in one model: exact actions per table, per index, on
 * the avatar objects and on queues, narrowed by IAM condition keys where they fit. The stack grants
 * exactly this and nothing more (lib/data-grants.ts); a test replays every function's requests
 * against the rendered policies (test/lib/function-grants-coverage.test.ts).
 */

/** DynamoDB actions a function may be granted. A transaction needs the action of each item it writes. */
export type TableAction = 'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem' | 'BatchWriteItem';

/** Values of DynamoDB's `ReturnValues` request parameter. */
export type ReturnValues = 'NONE' | 'ALL_OLD' | 'UPDATED_OLD' | 'ALL_NEW' | 'UPDATED_NEW';

/**
 * One permission on a table: actions on its items, or Query on named indexes, narrowed by
 * DynamoDB's condition keys
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
 */
export interface TableAccess {
  readonly actions: readonly TableAction[];
  /** Query these indexes of the table (Query is the only action on an index); unset: the table's items. */
  readonly indexes?: readonly string[];
  /** Partition key values the requests may name, `*` for any text (`dynamodb:LeadingKeys`). */
  readonly partitions?: readonly string[];
  /**
   * The only attributes a request may name, write or get back (`dynamodb:Attributes`); must hold
   * the table's key attributes. Only for requests that name their attributes: an `ALL_NEW` or an
   * unprojected read returns every attribute and is refused.
   */
  readonly attributes?: readonly string[];
  /** The `ReturnValues` a request may ask for, if it asks (`dynamodb:ReturnValues`). */
  readonly returnValues?: readonly ReturnValues[];
  /**
   * Only as an item of a `TransactWriteItems` (`dynamodb:EnclosingOperation`,
   * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html).
   */
  readonly inTransaction?: boolean;
}

/** S3 actions on a prefix of the avatar bucket; `ListBucket` lists the keys under it. */
export type ObjectAction = 'GetObject' | 'PutObject' | 'DeleteObject' | 'ListBucket';

/**
 * SQS actions on a queue. A queue consumer needs `ReceiveMessage`, `DeleteMessage` and
 * `GetQueueAttributes` (its event source mapping reads with them); a producer `SendMessage`.
 */
export type QueueAction = 'ReceiveMessage' | 'DeleteMessage' | 'GetQueueAttributes' | 'SendMessage';

/**
 * Calls of the WebSocket API's `@connections` management API on its connections: `POST` sends a
 * message, `GET` describes a connection, `DELETE` closes it (`execute-api:ManageConnections` on
 * `<stage>/<method>/@connections/*`,
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-control-access-iam.html).
 */
export type ConnectionAction = 'POST' | 'GET' | 'DELETE';

/** Everything one function may touch, whatever invokes it. */
export interface DataGrants {
  /** The users table (definition id `Users`). */
  readonly users?: readonly TableAccess[];
  /** The media log table (definition id `MediaLog`). */
  readonly mediaLog?: readonly TableAccess[];
  /** The media log's counters table (definition id `MediaLogCounts`). */
  readonly mediaLogCounts?: readonly TableAccess[];
  /** The first stage of the counter fold: its deltas and per-shard watermarks (definition id `MediaLogDeltas`). */
  readonly mediaLogDeltas?: readonly TableAccess[];
  /** The records of requests made with an `Idempotency-Key` (definition id `Idempotency`). */
  readonly idempotency?: readonly TableAccess[];
  /** The live media log's tickets, connections and registry (definition id `LiveConnections`). */
  readonly liveConnections?: readonly TableAccess[];
  /** The live media log's connections, through the WebSocket API's `@connections` API. */
  readonly connections?: readonly ConnectionAction[];
  /** Objects under the avatar prefix of the avatar bucket. */
  readonly avatars?: readonly ObjectAction[];
  /** Objects under the upload prefix of the avatar bucket (the files browsers post with an upload form). */
  readonly uploads?: readonly ObjectAction[];
  /** Queues, by the id the stack gives them (e.g. `MediaLogEvents`). */
  readonly queues?: Readonly<Record<string, readonly QueueAction[]>>;
}

/** The tables of {@link DataGrants}, by grant key. */
export type TableGrantKey = 'users' | 'mediaLog' | 'mediaLogCounts' | 'mediaLogDeltas' | 'idempotency' | 'liveConnections';

/**
 * The grants a route declares: the same model as every other function's, but for the idempotency
 * table, which a route is granted by taking an `Idempotency-Key` (route-grants.ts), never by hand.
 */
export type RouteGrants = Omit<DataGrants, 'idempotency'>;
