import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { resourceId, type IndexDefinition, type KeyAttribute, type TableDefinition } from '../../functions/shared/tables/index';

/** Properties of {@link DataTables}. */
export interface DataTablesProps {
  /** The table definitions the code uses; the stack never describes a table twice. */
  readonly definitions: readonly TableDefinition[];
  /** Refuse `DeleteTable` while on. */
  readonly deletionProtection: boolean;
}

/** A deployed table with the definition it was created from. */
export interface DeployedTable {
  readonly definition: TableDefinition;
  readonly table: dynamodb.Table;
}

function attribute(key: KeyAttribute): dynamodb.Attribute {
  return { name: key.name, type: key.type === 'S' ? dynamodb.AttributeType.STRING : dynamodb.AttributeType.NUMBER };
}

function projection(index: IndexDefinition): Pick<dynamodb.GlobalSecondaryIndexProps, 'projectionType' | 'nonKeyAttributes'> {
  switch (index.projection.type) {
    case 'ALL':
      return { projectionType: dynamodb.ProjectionType.ALL };
    case 'KEYS_ONLY':
      return { projectionType: dynamodb.ProjectionType.KEYS_ONLY };
    case 'INCLUDE':
      return { projectionType: dynamodb.ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] };
  }
}

/**
 * Every DynamoDB table of the service, mapped one to one from the definitions in
 * `functions/shared/tables`: keys, indexes with their projections, TTL, stream. On-demand capacity,
 * point-in-time recovery, and retained on stack deletion: the data outlives any deployment.
 */
export class DataTables extends Construct {
  /** The tables, in definition order. */
  public readonly tables: readonly DeployedTable[];

  public constructor(scope: Construct, id: string, props: DataTablesProps) {
    super(scope, id);
    this.tables = props.definitions.map((definition) => ({
      definition,
      table: this.createTable(definition, props.deletionProtection),
    }));
  }

  /** The deployed table of a definition id, with its definition; throws for an id the stack does not know. */
  public byId(definitionId: string): DeployedTable {
    const found = this.tables.find((entry) => entry.definition.id === definitionId);
    if (!found) throw new Error(`No table with definition id "${definitionId}".`);
    return found;
  }

  private createTable(definition: TableDefinition, deletionProtection: boolean): dynamodb.Table {
    // A new layout is a new resource (table-definition.ts): CloudFormation creates it with every index and retains the old table.
    const table = new dynamodb.Table(this, resourceId(definition), {
      partitionKey: attribute(definition.partitionKey),
      sortKey: definition.sortKey && attribute(definition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection,
      timeToLiveAttribute: definition.timeToLiveAttribute,
      ...(definition.warmWrites === undefined ? {} : { warmThroughput: { writeUnitsPerSecond: definition.warmWrites } }),
      stream: definition.stream && dynamodb.StreamViewType[definition.stream],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of definition.indexes) {
      table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: attribute(index.partitionKey),
        sortKey: index.sortKey && attribute(index.sortKey),
        ...projection(index),
        ...(index.warmWrites === undefined ? {} : { warmThroughput: { writeUnitsPerSecond: index.warmWrites } }),
      });
    }
    return table;
  }
}
