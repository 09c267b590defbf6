import * as iam from 'aws-cdk-lib/aws-iam';
import type { TableAccess } from '../functions/shared/deployment/data-grants';
import type { DeployedTable } from './constructs/data-tables';

/**
 * IAM statements of a function's {@link TableAccess} entries: one statement each, on the table's
 * ARN or on named indexes (never `index/*`), with the entry's DynamoDB condition keys
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html).
 */

/** Thrown when a grant names what the table definition does not have, or asks what IAM cannot give. */
export class InvalidGrantError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'InvalidGrantError';
  }
}

type Conditions = Record<string, Record<string, string | string[]>>;

/** The condition block of an entry: each restriction under the operator its key needs. */
function conditionsOf(access: TableAccess): Conditions | undefined {
  const conditions: Conditions = {};
  const add = (operator: string, key: string, values: readonly string[]) => {
    conditions[operator] = { ...conditions[operator], [key]: [...values] };
  };
  // Multivalued keys take ForAllValues (every value of the request among these) or ForAnyValue.
  if (access.partitions) add('ForAllValues:StringLike', 'dynamodb:LeadingKeys', access.partitions);
  if (access.attributes) add('ForAllValues:StringEquals', 'dynamodb:Attributes', access.attributes);
  // ForAllValues holds for a request without the key; ForAnyValue does not: outside a transaction, refused.
  if (access.inTransaction) add('ForAnyValue:StringEquals', 'dynamodb:EnclosingOperation', ['TransactWriteItems']);
  if (access.returnValues) add('StringEqualsIfExists', 'dynamodb:ReturnValues', access.returnValues);
  return Object.keys(conditions).length === 0 ? undefined : conditions;
}

function resourcesOf(access: TableAccess, { table, definition }: DeployedTable): string[] {
  if (access.indexes === undefined) return [table.tableArn];
  if (access.indexes.length === 0) throw new InvalidGrantError(`A grant on the indexes of table ${definition.id} names none.`);
  const unknown = access.indexes.filter((name) => !definition.indexes.some((index) => index.indexName === name));
  if (unknown.length > 0) throw new InvalidGrantError(`A grant names the indexes ${unknown.join(', ')}, which table ${definition.id} does not have.`);
  if (access.actions.some((action) => action !== 'Query')) throw new InvalidGrantError(`A grant on the indexes of table ${definition.id} may only Query them.`);
  return access.indexes.map((name) => `${table.tableArn}/index/${name}`);
}

function checkKeysListed(access: TableAccess, { definition }: DeployedTable): void {
  // DynamoDB cannot act on an item whose key attributes an Attributes condition leaves out.
  const keys = [definition.partitionKey.name, ...(definition.sortKey ? [definition.sortKey.name] : [])];
  const missing = keys.filter((key) => access.attributes !== undefined && !access.attributes.includes(key));
  if (missing.length > 0) throw new InvalidGrantError(`An attribute list on table ${definition.id} must hold its keys; ${missing.join(', ')} missing.`);
}

/** The statement of one entry on one deployed table. */
export function tableStatement(access: TableAccess, deployed: DeployedTable): iam.PolicyStatement {
  if (access.actions.length === 0) throw new InvalidGrantError(`A grant on table ${deployed.definition.id} names no action.`);
  checkKeysListed(access, deployed);
  const conditions = conditionsOf(access);
  return new iam.PolicyStatement({
    actions: access.actions.map((action) => `dynamodb:${action}`),
    resources: resourcesOf(access, deployed),
    ...(conditions ? { conditions } : {}),
  });
}
