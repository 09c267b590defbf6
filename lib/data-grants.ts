import * as iam from 'aws-cdk-lib/aws-iam';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { IConstruct } from 'constructs';
import type { RouteGrants } from '../functions/routes';
import type { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import type { DataTables, DeployedTable } from './constructs/data-tables';
import { acknowledgeFindings } from './nag-acknowledgements';

/**
 * Least-privilege access from a route's `grants` in the route table: the exact DynamoDB actions on
 * the exact table and index ARNs, object actions on the bucket's own prefixes. No `Scan`, no
 * `DescribeTable`, no `index/*`: a function can do what its grant says and nothing else.
 */

/** DynamoDB actions of a `read` grant; transactions reuse them (TransactGetItems needs GetItem). */
export const TABLE_READ_ACTIONS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query', 'dynamodb:ConditionCheckItem'] as const;

/** DynamoDB actions a `write` grant adds; TransactWriteItems needs the ones of the items it writes. */
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const;

/** S3 actions of an avatars `read` grant. */
export const OBJECT_READ_ACTIONS = ['s3:GetObject'] as const;

/** S3 actions an avatars `write` grant adds: store, promote (copy) and delete objects. */
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
  const { avatarBucket: bucket, avatarDefinition: definition } = data;
  const prefixes = [definition.objectPrefix, definition.pendingPrefix];
  const actions = level === 'write' ? [...OBJECT_READ_ACTIONS, ...OBJECT_WRITE_ACTIONS] : [...OBJECT_READ_ACTIONS];
  iam.Grant.addToPrincipal({ grantee, actions, resourceArns: prefixes.map((prefix) => bucket.arnForObjects(`${prefix}*`)) });
  for (const prefix of prefixes) {
    acknowledgeFindings(grantee, {
      [`AwsSolutions-IAM5[Resource::<${logicalIdToken(bucket)}.Arn>/${prefix}*]`]: `Avatar object keys are content hashes, unknown until upload; access is limited to the "${prefix}" prefix of the avatar bucket.`,
    });
  }
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
