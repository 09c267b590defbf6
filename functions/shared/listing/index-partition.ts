import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { KeyWindow } from './key-window';

/**
 * One partition of a listing index and the Query that reads it within a window: what the merge
 * reader (merge-reader.ts) walks, and what a count reads without merging (count-window.ts).
 */

/** A stored item, as the document client returns it. */
export type ListedItem = Record<string, unknown>;

/** A DynamoDB filter expression with its placeholders, checked on each item read. */
export interface ItemFilter {
  readonly expression: string;
  readonly names: Readonly<Record<string, string>>;
  readonly values: Readonly<Record<string, unknown>>;
}

/** One partition of a listing index. */
export interface IndexPartition {
  readonly indexName: string;
  readonly attribute: string;
  readonly value: string;
  /** The sort keys the partition can hold (a month's partition): it is skipped when outside the window. */
  readonly span?: KeyWindow;
}

/** The Query of one partition within a window: key condition, optional filter. */
export function partitionQuery(tableName: string, sortAttribute: string, partition: IndexPartition, window: KeyWindow, filter?: ItemFilter): QueryCommandInput {
  const names: Record<string, string> = { '#p': partition.attribute, ...filter?.names };
  const values: Record<string, unknown> = { ':p': partition.value, ...filter?.values };
  let condition = '#p = :p';
  if (window.lo !== undefined || window.hi !== undefined) names['#k'] = sortAttribute;
  if (window.lo !== undefined) values[':lo'] = window.lo;
  if (window.hi !== undefined) values[':hi'] = window.hi;
  if (window.lo !== undefined && window.hi !== undefined) condition += ' AND #k BETWEEN :lo AND :hi';
  else if (window.lo !== undefined) condition += ' AND #k >= :lo';
  else if (window.hi !== undefined) condition += ' AND #k <= :hi';
  return {
    TableName: tableName,
    IndexName: partition.indexName,
    KeyConditionExpression: condition,
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
