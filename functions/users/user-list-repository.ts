import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readMergedPage, type MergedPage, type PartitionPosition, type SortedStream } from '../shared/dynamo/merged-query';
import type { Role, UserStatus } from '../shared/access/roles';
import { USER_INDEX_ATTRIBUTES, userListIndexName, type USER_LIST_SCOPES, type USER_SORT_KEYS } from '../shared/tables/users-table';
import { totalsAttribute, usersKeys, type TotalsScope } from '../shared/tables/users-keys';

/** One index partition to list: a scope partition value, an optional key prefix, optional filters. */
export interface UserPartition {
  readonly scope: (typeof USER_LIST_SCOPES)[number];
  /** Partition value, e.g. `USERS`, `ROLE#admin`, `FAMILY#12`. */
  readonly value: string;
  /** Sort-key prefix (the email or username prefix filter, lower-cased). */
  readonly prefix?: string;
  readonly roles?: readonly Role[];
  readonly excludeRole?: Role;
  readonly statuses?: readonly UserStatus[];
}

/** `#attribute IN (:attribute0, …)`, registering the name and the values. */
function inFilter(attribute: string, allowed: readonly string[], names: Record<string, string>, values: Record<string, unknown>): string {
  names[`#${attribute}`] = attribute;
  const placeholders = allowed.map((value, index) => {
    values[`:${attribute}${index}`] = value;
    return `:${attribute}${index}`;
  });
  return `#${attribute} IN (${placeholders.join(', ')})`;
}

/**
 * The reads behind GET /user: pages merged from listing-index partitions, exact totals from the
 * per-role/status counters, and counts of small or prefix-bounded ranges.
 */
export class UserListRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private stream(partition: UserPartition, sort: (typeof USER_SORT_KEYS)[number]): SortedStream {
    const scopeAttribute = USER_INDEX_ATTRIBUTES.scope[partition.scope];
    const sortAttribute = USER_INDEX_ATTRIBUTES.sort[sort];
    const names: Record<string, string> = { '#scope': scopeAttribute, '#sort': sortAttribute };
    const values: Record<string, unknown> = { ':scope': partition.value };
    const filters: string[] = [];
    let keyCondition = '#scope = :scope';
    if (partition.prefix !== undefined) {
      keyCondition += ' AND begins_with(#sort, :prefix)';
      values[':prefix'] = partition.prefix;
    }
    if (partition.roles?.length) filters.push(inFilter('role', partition.roles, names, values));
    if (partition.excludeRole !== undefined) {
      names['#role'] = 'role';
      values[':excluded'] = partition.excludeRole;
      filters.push('#role <> :excluded');
    }
    if (partition.statuses?.length) filters.push(inFilter('status', partition.statuses, names, values));
    if (partition.prefix === undefined) delete names['#sort'];
    return {
      query: {
        TableName: this.tableName,
        IndexName: userListIndexName(partition.scope, sort),
        KeyConditionExpression: keyCondition,
        ...(filters.length ? { FilterExpression: filters.join(' AND ') } : {}),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
      keyAttributes: ['pk', 'sk', scopeAttribute, sortAttribute],
      partition: { attribute: scopeAttribute, value: partition.value },
    };
  }

  /** One page of the merge of `partitions`, sorted by `sort`. */
  public async page(
    partitions: readonly UserPartition[],
    sort: (typeof USER_SORT_KEYS)[number],
    options: { descending: boolean; skip: number; take: number; starts?: readonly PartitionPosition[] },
  ): Promise<MergedPage<Record<string, unknown>>> {
    const streams = partitions.map((partition) => this.stream(partition, sort));
    return readMergedPage(this.client, streams, { sortAttribute: USER_INDEX_ATTRIBUTES.sort[sort], ...options });
  }

  /** Count the items of partitions by reading their keys (for small or prefix-bounded ranges only). */
  public async count(partitions: readonly UserPartition[], sort: (typeof USER_SORT_KEYS)[number]): Promise<number> {
    let total = 0;
    for (const partition of partitions) {
      const { query } = this.stream(partition, sort);
      let start: Record<string, unknown> | undefined;
      do {
        const output = await this.client.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: start }));
        total += output.Count ?? 0;
        start = output.LastEvaluatedKey;
      } while (start);
    }
    return total;
  }

  /**
   * Sum of the kept counts of a scope (everyone, or one family) for the role × status combinations
   * given: one item read, exact, whatever the number of users.
   */
  public async countCombinations(scope: TotalsScope, roles: readonly Role[], statuses: readonly UserStatus[]): Promise<number> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: usersKeys.totals(scope) }));
    return roles.flatMap((role) => statuses.map((status) => Number(Item?.[totalsAttribute(role, status)] ?? 0))).reduce((sum, count) => sum + count, 0);
  }
}
