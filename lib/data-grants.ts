import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import type { BackgroundGrants, RouteGrants, TableOperation } from '../functions/shared/deployment/data-grants';
import type { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import type { DataTables, DeployedTable } from './constructs/data-tables';
import { acknowledgeFindings } from './nag-acknowledgements';

/**
 * Least-privilege access from the `grants` of a route (route table) or of a background function:
 * the exact DynamoDB actions on the exact table and index ARNs, object actions on the avatar prefix
 * only. No `Scan`, no `DescribeTable`, no `index/*`: a function can do what its grant says and
 * nothing else.
 */

/** DynamoDB actions of a `read` grant; transactions reuse them (TransactGetItems needs GetItem). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;

/** DynamoDB actions a `write` grant adds; TransactWriteItems needs the ones of the items it writes. */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

/** S3 actions of an avatars `read` grant. */
export const OBJECT_READ_ACTIONS = ['s3:GetObject'] as const;

/** S3 actions an avatars `write` grant adds: store and delete objects. */
export const OBJECT_WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject'] as const;

/** The data resources grants refer to. */
export interface GrantableData {
  readonly tables: DataTables;
  readonly avatarBucket: s3.IBucket;
  readonly avatarDefinition: typeof avatarBucket;
}

/** Table keys of {@link RouteGrants} (every key but the bucket's). */
type TableGrantKey = Exclude<keyof RouteGrants, 'avatars'>;

const TABLE_GRANT_KEYS: readonly TableGrantKey[] = ['users', 'mediaLog'];

/** The table a grant key names: the definition whose id is the key in PascalCase (`mediaLog` → `MediaLog`). */
function tableForGrant(tables: DataTables, key: TableGrantKey): DeployedTable {
  const id = key.charAt(0).toUpperCase() + key.slice(1);
  const found = tables.tables.find((entry) => entry.definition.id === id);
  if (!found) throw new Error(`A grant names "${key}", but no table definition has id "${id}".`);
  return found;
}

function tableResources({ table, definition }: DeployedTable): string[] {
  return [table.tableArn, ...definition.indexes.map((index) => `${table.tableArn}/index/${index.indexName}`)];
}

function grantTable(grantee: iam.IGrantable, deployed: DeployedTable, level: 'read' | 'write'): void {
  const actions = level === 'write' ? [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS] : [...TABLE_READ_ACTIONS];
  iam.Grant.addToPrincipal({ grantee, actions, resourceArns: tableResources(deployed) });
}

function grantAvatars(grantee: iam.IGrantable & IConstruct, data: GrantableData, level: 'read' | 'write'): void {
  const actions = level === 'write' ? [...OBJECT_READ_ACTIONS, ...OBJECT_WRITE_ACTIONS] : [...OBJECT_READ_ACTIONS];
  grantAvatarObjects(grantee, data, actions);
}

function grantAvatarObjects(grantee: iam.IGrantable & IConstruct, data: GrantableData, actions: string[]): void {
  const { avatarBucket: bucket, avatarDefinition: definition } = data;
  const prefix = definition.objectPrefix;
  iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [bucket.arnForObjects(`${prefix}*`)] });
  acknowledgeFindings(grantee, {
    [`AwsSolutions-IAM5[Resource::<${logicalIdToken(bucket)}.Arn>/${prefix}*]`]: `Avatar object keys are content hashes, unknown until upload; access is limited to the "${prefix}" prefix of the avatar bucket.`,
  });
}

/** Listing keys under the avatar prefix: `ListBucket` is a bucket action, so the prefix is a condition. */
function grantAvatarListing(grantee: iam.IGrantable, data: GrantableData): void {
  const { avatarBucket: bucket, avatarDefinition: definition } = data;
  iam.Grant.addToPrincipal({
    grantee,
    actions: ['s3:ListBucket'],
    resourceArns: [bucket.bucketArn],
    conditions: { StringLike: { 's3:prefix': `${definition.objectPrefix}*` } },
  });
}

/** The logical id of a bucket as cdk-nag prints it in a finding (`<LogicalId.Arn>`). */
function logicalIdToken(bucket: s3.IBucket): string {
  const resource = bucket.node.defaultChild as { logicalId?: string } | undefined;
  if (!resource?.logicalId) throw new Error('The avatar bucket has no CloudFormation resource.');
  return bucket.stack.resolve(resource.logicalId) as string;
}

/** Grants a function's role exactly what its route-table `grants` say. */
export function grantRouteData(grantee: iam.IGrantable & IConstruct, grants: RouteGrants, data: GrantableData): void {
  for (const key of TABLE_GRANT_KEYS) {
    const level = grants[key];
    if (level) grantTable(grantee, tableForGrant(data.tables, key), level);
  }
  if (grants.avatars) grantAvatars(grantee, data, grants.avatars);
}

/** DynamoDB actions of each {@link TableOperation}; `BatchGetItem` reads the table itself, never an index. */
const TABLE_OPERATION_ACTIONS = { batchGet: ['dynamodb:BatchGetItem'] } as const satisfies Record<TableOperation, readonly string[]>;

/** Grants a background function's role exactly the operations its `grants` name. */
export function grantBackgroundData(grantee: iam.IGrantable & IConstruct, grants: BackgroundGrants, data: GrantableData): void {
  for (const key of TABLE_GRANT_KEYS) {
    const actions = (grants[key] ?? []).flatMap((operation) => TABLE_OPERATION_ACTIONS[operation]);
    if (actions.length > 0) iam.Grant.addToPrincipal({ grantee, actions, resourceArns: [tableForGrant(data.tables, key).table.tableArn] });
  }
  const avatars = grants.avatars ?? [];
  if (avatars.includes('list')) grantAvatarListing(grantee, data);
  if (avatars.includes('delete')) grantAvatarObjects(grantee, data, ['s3:DeleteObject']);
}
