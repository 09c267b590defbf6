/**
 * The one description of a DynamoDB table that the CDK stack, the local back-end set-up and the
 * tests all read. Keep it declarative: no SDK or CDK types here, so that both sides can map it.
 */

/** A key attribute: DynamoDB key attributes are strings (S) or numbers (N) in this service. */
export interface KeyAttribute {
  readonly name: string;
  readonly type: 'S' | 'N';
}

/** A global secondary index, named after the access pattern it serves (its definition's comment says what it costs). */
export interface IndexDefinition {
  readonly indexName: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  /** ALL unless the pattern only needs the keys (KEYS_ONLY) or a few attributes (INCLUDE). */
  readonly projection: { readonly type: 'ALL' } | { readonly type: 'KEYS_ONLY' } | { readonly type: 'INCLUDE'; readonly attributes: readonly string[] };
  /** Write units per second the index takes from its first second (warm throughput), where the default of a new table is too few. */
  readonly warmWrites?: number;
}

/** A table: keys, indexes and TTL, plus how code finds its deployed name. */
export interface TableDefinition {
  /** Logical id in the CDK stack and the default table name locally. */
  readonly id: string;
  /** Environment variable that carries the deployed table name to the functions. */
  readonly nameEnv: string;
  readonly partitionKey: KeyAttribute;
  readonly sortKey?: KeyAttribute;
  readonly indexes: readonly IndexDefinition[];
  readonly timeToLiveAttribute?: string;
  /**
   * Write units per second the table takes from its first second (warm throughput), where the
   * 4,000 a new on-demand table starts with are too few: a table a layout change creates takes the
   * whole feed at once (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/warm-throughput.html).
   */
  readonly warmWrites?: number;
  /** A change stream of the table's items, with the images its consumers need (DynamoDB Streams). */
  readonly stream?: 'NEW_AND_OLD_IMAGES' | 'NEW_IMAGE' | 'OLD_IMAGE' | 'KEYS_ONLY';
  /**
   * The layout of keys and indexes, counted from 1 (the default). A layout a deployed table cannot
   * be updated to in place (CloudFormation creates or deletes one global secondary index per update,
   * and changes no key schema) is a new table: its resource id carries the layout (see
   * {@link resourceId}), so CloudFormation creates it beside the old one, which it retains.
   */
  readonly layout?: number;
  /** The variable that states the layout to the functions, for a table that has had more than one (table-names.ts, `LAYOUT_TABLES`). */
  readonly layoutEnv?: string;
}

/** The table's logical id in the stack and its default name locally: the definition id, then `V<layout>` from the second layout on. */
export function resourceId(table: Pick<TableDefinition, 'id' | 'layout'>): string {
  return table.layout === undefined || table.layout === 1 ? table.id : `${table.id}V${table.layout}`;
}

/** Every key attribute a table declares (base keys and index keys), without repeats. */
export function keyAttributes(table: TableDefinition): KeyAttribute[] {
  const all = [table.partitionKey, table.sortKey, ...table.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
  const byName = new Map<string, KeyAttribute>();
  for (const attribute of all) {
    if (attribute) byName.set(attribute.name, attribute);
  }
  return [...byName.values()];
}
