import {
  type AttributeValue,
  type CreateTableCommandInput,
  CreateTableCommand,
  DeleteItemCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  type DynamoDBClient,
  type KeySchemaElement,
  type Projection,
  PutItemCommand,
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

/** The key value of the item {@link anchorStream} writes and deletes: no stream consumer's key prefix matches it, so no consumer is handed its records. */
export const STREAM_ANCHOR_KEY = '~stream-anchor';

function anchorValue(attribute: KeyAttribute): AttributeValue {
  return attribute.type === 'N' ? { N: '0' } : { S: STREAM_ANCHOR_KEY };
}

/**
 * Give a new table's stream its first records at once: one item written and deleted.
 * Why: DynamoDB Local keeps every table's stream records in one log ordered by sequence number,
 * with no index by stream, and on every write to a table with a stream and every `GetRecords` of
 * it, it looks up that stream's first sequence number by walking the log from its oldest record
 * to the stream's first (its `SELECT MIN(SequenceNumber) … WHERE StreamID = ?`, seen in thread
 * dumps of a slow run). A stream first written late pays for everything written before it, at
 * each of its writes and polls, while DynamoDB Local serves nothing else: the deltas' stream,
 * first written when the fold first ran after an import of 60,000 entries, made each first-stage
 * transaction take 174 ms instead of 28 and each poll 71 ms instead of 28; after two imports of
 * 100,000 the feed beside the fold ran at 0.23× its floor instead of 0.84× (CONTRIBUTING.md, "How
 * the media log is written and counted"). A cost of DynamoDB Local's, so local only.
 */
async function anchorStream(client: DynamoDBClient, definition: TableDefinition, name: string): Promise<void> {
  const key: Record<string, AttributeValue> = { [definition.partitionKey.name]: anchorValue(definition.partitionKey) };
  if (definition.sortKey) key[definition.sortKey.name] = anchorValue(definition.sortKey);
  await client.send(new PutItemCommand({ TableName: name, Item: key }));
  await client.send(new DeleteItemCommand({ TableName: name, Key: key }));
}

/**
 * Creates one table unless it exists, then makes sure its TTL is on; a table it creates with a
 * stream gets its stream's first records at once ({@link anchorStream}). Safe to run concurrently.
 */
export async function provisionTable(client: DynamoDBClient, { definition, name }: NamedTable): Promise<TableProvisioning> {
  const existing = await describeTable(client, name);
  let outcome: ProvisionOutcome = 'existed';
  if (!existing) {
    try {
      await client.send(new CreateTableCommand(createTableInput(definition, name)));
      outcome = 'created';
      if (definition.stream !== undefined) await anchorStream(client, definition, name);
    } catch (error) {
      // Another process provisioning the same endpoint got there first.
      if (!(error instanceof ResourceInUseException)) throw error;
    }
  }
  if (definition.timeToLiveAttribute) await enableTimeToLive(client, name, definition.timeToLiveAttribute);
  return { name, outcome, drift: existing ? tableDrift(definition, existing) : [] };
}
