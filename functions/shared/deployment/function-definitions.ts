import type { RouteDefinition } from '../http/route-definition';
import type { DataGrants } from './data-grants';

/**
 * The kinds of function the service deploys besides routes (the authorizer, scheduled functions,
 * queue and stream consumers, the WebSocket API's routes), and the types of the one list that holds them all
 * (functions/deployed-functions.ts): by kind, as the stack deploys them (each with the same
 * bundling, runtime, logging and alarms), and one entry each, as `invoke` lists and runs them and
 * the benches bundle them.
 */

/** The REQUEST authorizer of the bearer routes. */
export interface AuthorizerDefinition {
  readonly name: string;
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  readonly grants: DataGrants;
}

/** A function that runs on a schedule. */
export interface ScheduledFunctionDefinition {
  /** Function name: the CDK construct id. */
  readonly name: string;
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  /** What the function is, for the console: `the … : …`. */
  readonly description: string;
  /** When it runs: an EventBridge schedule expression. */
  readonly schedule: `rate(${string})` | `cron(${string})`;
  readonly grants: DataGrants;
}

/** A function that consumes an SQS queue the stack creates, with partial batch responses. */
export interface QueueConsumerDefinition {
  /** Function name: the CDK construct id. */
  readonly name: string;
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  /** What the function is, for the console: `the … : …`. */
  readonly description: string;
  /** The queue it consumes: its construct id and name in the stack (e.g. `MediaLogEvents`). */
  readonly queue: string;
  /** Most messages per invocation (1–10,000; above 10 only with a batching window). */
  readonly batchSize: number;
  /** Longest wait, in seconds, to fill a batch (0–300). */
  readonly maxBatchingWindowSeconds: number;
  /** Receives of a message before the queue moves it to its dead-letter queue. */
  readonly maxReceiveCount: number;
  /**
   * Most invocations the queue's event source mapping runs at once (2–1,000): required, so that no
   * consumer can take the account's concurrency from the authorizer and the routes.
   */
  readonly maxConcurrency: number;
  /** The function's timeout; the queue hides a received message for six times as long. */
  readonly timeoutSeconds: number;
  readonly grants: DataGrants;
}

/**
 * A function that consumes the stream of a table the stack creates (DynamoDB Streams), one
 * invocation per shard at a time, in the shard's order.
 */
export interface StreamConsumerDefinition {
  /** Function name: the CDK construct id. */
  readonly name: string;
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  /** What the function is, for the console: `the … : …`. */
  readonly description: string;
  /** The table whose stream it consumes: its definition id (e.g. `MediaLog`). */
  readonly table: string;
  /** Only records whose partition key starts with one of these reach the function (an event filter on `dynamodb.Keys.pk.S`). */
  readonly keyPrefixes: readonly string[];
  /** Only records of these events reach the function (an event filter on `eventName`); unset: every event. */
  readonly eventNames?: readonly ('INSERT' | 'MODIFY' | 'REMOVE')[];
  /** Most records per invocation (1–10,000). */
  readonly batchSize: number;
  /** Longest wait, in seconds, to fill a batch (0–300). */
  readonly maxBatchingWindowSeconds: number;
  /** The tumbling window (1–900 s) that makes Lambda name the batch's shard in the event. */
  readonly tumblingWindowSeconds: number;
  /** The function's timeout. */
  readonly timeoutSeconds: number;
  /** Records older than this (60–604,800 s) are not delivered again: a failing batch is retried until then, then described in the failure queue. */
  readonly maximumRecordAgeSeconds: number;
  /** The queue that receives the description of a batch Lambda gave up on (its construct id and name). */
  readonly failureQueue: string;
  /** The variable that tells the consumer its failure queue's URL, where it reports the records it skips itself. */
  readonly failureQueueUrlEnv?: string;
  /** What an operator does about a batch the consumer gave up on (the failure queue's alarm says it); unset: run the media log's recount. */
  readonly failureAdvice?: string;
  /** The business metric (metric-catalog.ts) counting the records the consumer skipped: alarmed on its first. */
  readonly skippedRecordsMetric?: string;
  readonly grants: DataGrants;
}

/**
 * A route of the WebSocket API (DESIGN.md 7c): API Gateway invokes its function for `$connect`,
 * `$disconnect`, a message whose `action` names the route (route selection `$request.body.action`),
 * or any other message (`$default`).
 */
export interface WebSocketRouteDefinition {
  /** Function name: the CDK construct id and the NAME of `invoke NAME`. */
  readonly name: string;
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  /** What the function is, for the console: `the … : …`. */
  readonly description: string;
  /** `$connect`, `$disconnect`, `$default`, or the `action` of the messages it takes. */
  readonly routeKey: string;
  /**
   * Whether the body the function returns goes back to the client as a message (a route response,
   * https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-route-response.html);
   * `$connect` and `$disconnect` answer the connection itself, never with a message.
   */
  readonly answersClient: boolean;
  readonly grants: DataGrants;
}

/** One deployed function, with what invokes it. */
export type DeployedFunction =
  | { readonly kind: 'route'; readonly name: string; readonly handler: string; readonly image: boolean; readonly idempotencyKey: boolean; readonly route: RouteDefinition }
  | { readonly kind: 'authorizer'; readonly name: string; readonly handler: string; readonly image: false; readonly authorizer: AuthorizerDefinition }
  | { readonly kind: 'schedule'; readonly name: string; readonly handler: string; readonly image: false; readonly scheduled: ScheduledFunctionDefinition }
  | { readonly kind: 'queue'; readonly name: string; readonly handler: string; readonly image: false; readonly consumer: QueueConsumerDefinition }
  | { readonly kind: 'stream'; readonly name: string; readonly handler: string; readonly image: false; readonly stream: StreamConsumerDefinition }
  | { readonly kind: 'websocket'; readonly name: string; readonly handler: string; readonly image: false; readonly webSocket: WebSocketRouteDefinition };

/** Every function of a deployment, by what invokes it. */
export interface ServiceFunctions {
  readonly routes: readonly RouteDefinition[];
  readonly authorizer: AuthorizerDefinition;
  readonly scheduled: readonly ScheduledFunctionDefinition[];
  readonly queueConsumers: readonly QueueConsumerDefinition[];
  readonly streamConsumers: readonly StreamConsumerDefinition[];
  /** The routes of the WebSocket API of the live media log. */
  readonly webSocketRoutes: readonly WebSocketRouteDefinition[];
}
