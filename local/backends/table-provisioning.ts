import {
  type CreateTableCommandInput,
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection,
  ResourceInUseException,
  ResourceNotFoundException,
  type TableDescription,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { type IndexDefinition, type KeyAttribute, type TableDefinition, keyAttributes } from '../../functions/shared/tables/index';
import type { NamedTable } from './resource-names';

/**
 * Creates the tables from the one table definition the stack reads too, so local tables have
 * exactly the deployed keys, indexes and TTL.
 */

/** What provisioning did to one resource. */
export type ProvisionOutcome = 'created' | 'existed';

/** What provisioning did to one table; `drift` names differences from the definition. */
export interface TableProvisioning {
  readonly name: string;
  readonly outcome: ProvisionOutcome;
  readonly drift: readonly string[];
}

function keySchema(partitionKey: KeyAttribute, sortKey?: KeyAttribute): KeySchemaElement[] {
  const schema: KeySchemaElement[] = [{ AttributeName: partitionKey.name, KeyType: 'HASH' }];
  if (sortKey) schema.push({ AttributeName: sortKey.name, KeyType: 'RANGE' });
  return schema;
}

function projection(index: IndexDefinition): Projection {
  const { projection: definition } = index;
  return definition.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...definition.attributes] }
    : { ProjectionType: definition.type };
}

/** The CreateTable request for a definition: on-demand billing, every index of the definition. */
export function createTableInput(definition: TableDefinition, name: string): CreateTableCommandInput {
  return {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyAttributes(definition).map((attribute) => ({ AttributeName: attribute.name, AttributeType: attribute.type })),
    KeySchema: keySchema(definition.partitionKey, definition.sortKey),
    GlobalSecondaryIndexes:
      definition.indexes.length === 0
        ? undefined
        : definition.indexes.map((index) => ({
            IndexName: index.indexName,
            KeySchema: keySchema(index.partitionKey, index.sortKey),
            Projection: projection(index),
          })),
    StreamSpecification: definition.stream === undefined ? undefined : { StreamEnabled: true, StreamViewType: definition.stream },
  };
}

async function describeTable(client: DynamoDBClient, name: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

/**
 * Differences between an existing table and its definition (keys and index names): a data
 * directory created before the definition changed keeps the old table until it is deleted.
 */
export function tableDrift(definition: TableDefinition, table: TableDescription): string[] {
  const drift: string[] = [];
  const keys = (schema: readonly KeySchemaElement[] | undefined) => JSON.stringify(schema?.map((k) => [k.AttributeName, k.KeyType]) ?? []);
  if (keys(table.KeySchema) !== keys(keySchema(definition.partitionKey, definition.sortKey))) drift.push('primary key');
  const existing = new Set((table.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const wanted = new Set(definition.indexes.map((index) => index.indexName));
  for (const name of wanted) if (!existing.has(name)) drift.push(`missing index ${name}`);
  for (const name of existing) if (name !== undefined && !wanted.has(name)) drift.push(`extra index ${name}`);
  const stream = table.StreamSpecification?.StreamEnabled === true ? table.StreamSpecification.StreamViewType : undefined;
  if (stream !== definition.stream) drift.push(definition.stream === undefined ? 'extra stream' : `stream ${stream ?? 'missing'} instead of ${definition.stream}`);
  return drift;
}

async function enableTimeToLive(client: DynamoDBClient, name: string, attribute: string): Promise<void> {
  const current = await client.send(new DescribeTimeToLiveCommand({ TableName: name }));
  const status = current.TimeToLiveDescription?.TimeToLiveStatus;
  if (status === 'ENABLED' || status === 'ENABLING') return;
  await client.send(new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { AttributeName: attribute, Enabled: true } }));
}

/** Creates one table unless it exists, then makes sure its TTL is on. Safe to run concurrently. */
export async function provisionTable(client: DynamoDBClient, { definition, name }: NamedTable): Promise<TableProvisioning> {
  const existing = await describeTable(client, name);
  let outcome: ProvisionOutcome = 'existed';
  if (!existing) {
    try {
      await client.send(new CreateTableCommand(createTableInput(definition, name)));
      outcome = 'created';
    } catch (error) {
      // Another process provisioning the same endpoint got there first.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  if (definition.timeToLiveAttribute) await enableTimeToLive(client, name, definition.timeToLiveAttribute);
  return { name, outcome, drift: existing ? tableDrift(definition, existing) : [] };
}
