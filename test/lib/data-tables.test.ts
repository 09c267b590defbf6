import { keyAttributes, tables, type IndexDefinition, type TableDefinition } from '../../functions/shared/tables/index';
import { synthesizeStack, tableLogicalId } from './stack-fixture';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

function keySchema(partitionKey: { name: string }, sortKey?: { name: string }) {
  return [{ AttributeName: partitionKey.name, KeyType: 'HASH' }, ...(sortKey ? [{ AttributeName: sortKey.name, KeyType: 'RANGE' }] : [])];
}

function expectedProjection(index: IndexDefinition) {
  if (index.projection.type === 'INCLUDE') return { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] };
  return { ProjectionType: index.projection.type };
}

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Record<string, Resource>;
const tableOf = (definition: TableDefinition): Resource => {
  const resource = resources[tableLogicalId(stack, definition)];
  if (!resource) throw new Error(`No table for ${definition.id}`);
  return resource;
};

describe.each(tables.map((definition) => [definition.id, definition] as const))('the %s table', (_id, definition) => {
  it('has the keys of its definition', () => {
    expect(tableOf(definition).Properties.KeySchema).toEqual(keySchema(definition.partitionKey, definition.sortKey));
  });

  it('declares exactly the key attributes of its definition', () => {
    const declared = tableOf(definition).Properties.AttributeDefinitions as { AttributeName: string; AttributeType: string }[];
    const expected = keyAttributes(definition).map((key) => ({ AttributeName: key.name, AttributeType: key.type }));
    expect([...declared].sort((a, b) => a.AttributeName.localeCompare(b.AttributeName))).toEqual(
      expected.sort((a, b) => a.AttributeName.localeCompare(b.AttributeName)),
    );
  });

  it('has exactly the indexes of its definition, with their keys and projections', () => {
    const indexes = (tableOf(definition).Properties.GlobalSecondaryIndexes ?? []) as Record<string, unknown>[];
    const expected = definition.indexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: keySchema(index.partitionKey, index.sortKey),
      Projection: expectedProjection(index),
      ...(index.warmWrites === undefined ? {} : { WarmThroughput: { WriteUnitsPerSecond: index.warmWrites } }),
    }));
    expect(indexes).toEqual(expected);
  });

  it('is warm for the writes its definition says it takes from its first second, or takes a new table\'s default', () => {
    const warm = tableOf(definition).Properties.WarmThroughput;
    expect(warm).toEqual(definition.warmWrites === undefined ? undefined : { WriteUnitsPerSecond: definition.warmWrites });
  });

  it('states its layout to every function where it has had more than one, so code of another layout refuses to start', () => {
    const functions = Object.values(resources).filter((resource) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Environment?.Variables?.[definition.nameEnv] !== undefined);
    expect(functions.length).toBeGreaterThan(10);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables[definition.layoutEnv ?? 'none']).toBe(definition.layoutEnv === undefined ? undefined : String(definition.layout));
    }
  });

  it('expires items by its TTL attribute, or has no TTL', () => {
    const ttl = tableOf(definition).Properties.TimeToLiveSpecification;
    if (definition.timeToLiveAttribute) {
      expect(ttl).toEqual({ AttributeName: definition.timeToLiveAttribute, Enabled: true });
    } else {
      expect(ttl).toBeUndefined();
    }
  });

  it('streams the images its definition names, or has no stream', () => {
    const stream = tableOf(definition).Properties.StreamSpecification;
    expect(stream).toEqual(definition.stream === undefined ? undefined : { StreamViewType: definition.stream });
  });

  it('is on-demand, point-in-time recoverable, deletion-protected and retained', () => {
    const table = tableOf(definition);
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      DeletionProtectionEnabled: true,
    });
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
  });
});

describe('the data tables', () => {
  it('are exactly the defined tables', () => {
    template.resourceCountIs('AWS::DynamoDB::Table', tables.length);
  });

  it('drop deletion protection when the deletionProtection context is false', () => {
    const unprotected = synthesizeStack({ deletionProtection: 'false' });
    const tableResources = unprotected.template.findResources('AWS::DynamoDB::Table');
    for (const table of Object.values(tableResources)) {
      expect(table.Properties.DeletionProtectionEnabled).toBe(false);
    }
    unprotected.template.hasResourceProperties('AWS::Cognito::UserPool', { DeletionProtection: 'INACTIVE' });
  });
});
