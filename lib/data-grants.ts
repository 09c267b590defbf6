import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import type { ConnectionAction, DataGrants, ObjectAction, QueueAction, TableGrantKey } from '../functions/shared/deployment/data-grants';
import type { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import type { DataTables, DeployedTable } from './constructs/data-tables';
import { acknowledgeFindings } from './nag-acknowledgements';
import { InvalidGrantError, tableStatement } from './table-grants';

/**
 * Least-privilege access from the `grants` of any deployed function (route, authorizer, scheduled,
 * queue or stream function): the exact DynamoDB actions on the exact table and index ARNs with their
 * conditions, object actions on the avatar and upload prefixes only, the named actions on named queues. No
 * `Scan`, no `DescribeTable`, no `index/*`, no wildcard action: a function can do what its grant
 * says and nothing else.
 */

/** What grants calls of a WebSocket API's `@connections` API (lib/constructs/live-api.ts). */
export interface ConnectionsGrantTarget {
  grantConnections(grantee: iam.IGrantable & IConstruct, actions: readonly ConnectionAction[]): void;
}

/** The data resources grants refer to. */
export interface GrantableData {
  readonly tables: DataTables;
  readonly avatarBucket: s3.IBucket;
  readonly avatarDefinition: typeof avatarBucket;
  /** The queues grants may name, by id. */
  readonly queues?: ReadonlyMap<string, sqs.IQueue>;
  /** The live media log's connections, which grants may name (`connections`). */
  readonly connections?: ConnectionsGrantTarget;
}

const TABLE_GRANT_KEYS: readonly TableGrantKey[] = ['users', 'mediaLog', 'mediaLogCounts', 'mediaLogDeltas', 'idempotency', 'liveConnections'];

/** The table a grant key names: the definition whose id is the key in PascalCase (`mediaLog` → `MediaLog`). */
function tableForGrant(tables: DataTables, key: TableGrantKey): DeployedTable {
  const id = key.charAt(0).toUpperCase() + key.slice(1);
  const found = tables.tables.find((entry) => entry.definition.id === id);
  if (!found) throw new InvalidGrantError(`A grant names "${key}", but no table definition has id "${id}".`);
  return found;
}

/** The logical id of a bucket as cdk-nag prints it in a finding (`<LogicalId.Arn>`). */
function logicalIdToken(bucket: s3.IBucket): string {
  const resource = bucket.node.defaultChild as { logicalId?: string } | undefined;
  if (!resource?.logicalId) throw new Error('The avatar bucket has no CloudFormation resource.');
  return bucket.stack.resolve(resource.logicalId) as string;
}

/** Object actions on one prefix of the avatar bucket, and why its keys cannot be named in advance (cdk-nag's IAM5). */
function grantBucketPrefix(grantee: iam.IGrantable & IConstruct, bucket: s3.IBucket, prefix: string, actions: readonly ObjectAction[], why: string): void {
  const onObjects = actions.filter((action) => action !== 'ListBucket');
  if (onObjects.length > 0) {
    iam.Grant.addToPrincipal({ grantee, actions: onObjects.map((action) => `s3:${action}`), resourceArns: [bucket.arnForObjects(`${prefix}*`)] });
    acknowledgeFindings(grantee, { [`AwsSolutions-IAM5[Resource::<${logicalIdToken(bucket)}.Arn>/${prefix}*]`]: why });
  }
  // ListBucket is a bucket action: the prefix is a condition, not a resource.
  if (actions.includes('ListBucket')) {
    iam.Grant.addToPrincipal({ grantee, actions: ['s3:ListBucket'], resourceArns: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': `${prefix}*` } } });
  }
}

function grantQueues(grantee: iam.IGrantable, data: GrantableData, queues: Readonly<Record<string, readonly QueueAction[]>>): void {
  for (const [id, actions] of Object.entries(queues)) {
    const queue = data.queues?.get(id);
    if (!queue) throw new InvalidGrantError(`A grant names the queue "${id}", which the stack does not have.`);
    iam.Grant.addToPrincipal({ grantee, actions: actions.map((action) => `sqs:${action}`), resourceArns: [queue.queueArn] });
  }
}

/** Grants a function's role exactly what its `grants` say. */
export function grantFunctionData(grantee: iam.IGrantable & IConstruct, grants: DataGrants, data: GrantableData): void {
  for (const key of TABLE_GRANT_KEYS) {
    const accesses = grants[key];
    if (accesses === undefined) continue;
    const deployed = tableForGrant(data.tables, key);
    for (const access of accesses) grantee.grantPrincipal.addToPrincipalPolicy(tableStatement(access, deployed));
  }
  const { avatarBucket: bucket, avatarDefinition: definition } = data;
  if (grants.avatars?.length) {
    const prefix = definition.objectPrefix;
    grantBucketPrefix(grantee, bucket, prefix, grants.avatars, `Avatar object keys are content hashes, unknown until upload; access is limited to the "${prefix}" prefix of the avatar bucket.`);
  }
  if (grants.uploads?.length) {
    const prefix = definition.uploadPrefix;
    grantBucketPrefix(grantee, bucket, prefix, grants.uploads, `Upload keys are random, made per upload form; access is limited to the "${prefix}" prefix of the avatar bucket.`);
  }
  if (grants.queues) grantQueues(grantee, data, grants.queues);
  if (grants.connections?.length) {
    if (!data.connections) throw new InvalidGrantError('A grant names @connections methods, but the stack has no WebSocket API.');
    data.connections.grantConnections(grantee, grants.connections);
  }
}
