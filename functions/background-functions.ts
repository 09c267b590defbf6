/**
 * The functions that no route serves: each runs on a schedule. Like the route table for routes, this
 * is the one list of them; the CDK stack deploys each with the same bundling, runtime, logging and
 * alarms as a route, and grants it exactly the operations its entry names.
 */
import type { RouteGrants } from './routes';

/** An S3 operation on the avatar prefix: `list` its keys, `delete` objects under it. */
export type AvatarOperation = 'list' | 'delete';

/** A DynamoDB operation on a table: `batchGet` reads items by primary key (no index). */
export type TableOperation = 'batchGet';

/**
 * Data a background function touches, operation by operation, under the same keys as a route's
 * grants. Finer than a route's read/write levels: a sweep that lists and deletes objects gets
 * neither reads nor writes of their content.
 */
export type BackgroundGrants = {
  readonly [K in keyof RouteGrants]?: readonly (K extends 'avatars' ? AvatarOperation : TableOperation)[];
};

/** One scheduled function, backed by one Lambda function. */
export interface BackgroundFunctionDefinition {
  /** Function name: the CDK construct id. */
  readonly name: string;
  /** Module (from the project root) whose named export `handler` is the function. */
  readonly handler: string;
  /** What the function is, for the console: `the … : …`. */
  readonly description: string;
  /** When it runs: an EventBridge schedule expression. */
  readonly schedule: `rate(${string})` | `cron(${string})`;
  readonly grants: BackgroundGrants;
}

/** Every scheduled function of the service. */
export const backgroundFunctions: readonly BackgroundFunctionDefinition[] = [
  {
    name: 'reconcileAvatarObjects',
    handler: 'functions/avatars/reconcile-avatar-objects.ts',
    description: 'the avatar reconciler: deletes avatar objects that no record points at',
    // Such objects only come from a crash between an upload's or a deletion's two writes: rare and
    // small. Daily bounds how long the image of a deleted avatar stays fetchable after such a crash.
    schedule: 'rate(1 day)',
    grants: { avatars: ['list', 'delete'], users: ['batchGet'] },
  },
];
