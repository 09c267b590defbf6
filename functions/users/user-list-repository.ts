import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Role, UserStatus } from '../shared/access/roles';
import { countWindow, type WindowCount } from '../shared/listing/count-window';
import { prefixWindow, windowAfter, type KeyWindow } from '../shared/listing/key-window';
import type { ItemFilter } from '../shared/listing/index-partition';
import { readMergedPage, type MergedPage, type SortedStream } from '../shared/listing/merge-reader';
import { COUNT_READ_BUDGET, PAGE_READ_BUDGET } from '../shared/listing/pagination';
import { USER_INDEX_ATTRIBUTES, userListIndexName, type USER_LIST_SCOPES, type USER_SORT_KEYS } from '../shared/tables/users-table';
import { totalsAttribute, usersKeys, type TotalsScope } from '../shared/tables/users-keys';

/** A sort key of the listing indexes. */
export type UserSortKey = (typeof USER_SORT_KEYS)[number];

/** One index partition to list: a scope partition value, with optional filters. */
export interface UserPartition {
  readonly scope: (typeof USER_LIST_SCOPES)[number];
  /** Partition value, from `usersKeys.scope`. */
  readonly value: string;
  readonly roles?: readonly Role[];
  readonly excludeRole?: Role;
  readonly statuses?: readonly UserStatus[];
}

/** What one listing reads: partitions, the sort key, and the email or username prefix if any. */
export interface UserListRead {
  readonly partitions: readonly UserPartition[];
  readonly sort: UserSortKey;
  /** Lower-case prefix of the sort key (the email or username filter). */
  readonly prefix?: string;
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

function filterOf(partition: UserPartition): ItemFilter | undefined {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses: string[] = [];
  if (partition.roles?.length) clauses.push(inFilter('role', partition.roles, names, values));
  if (partition.excludeRole !== undefined) {
    names['#role'] = 'role';
    values[':excluded'] = partition.excludeRole;
    clauses.push('#role <> :excluded');
  }
  if (partition.statuses?.length) clauses.push(inFilter('status', partition.statuses, names, values));
  return clauses.length === 0 ? undefined : { expression: clauses.join(' AND '), names, values };
}

/**
 * The reads behind GET /user, through the listing engine: pages merged from listing-index
 * partitions, exact totals from the per-role/status counters, and the budgeted count of a prefix.
 */
export class UserListRepository {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private streams(read: UserListRead) {
    const streams: SortedStream[] = read.partitions.map((partition) => ({
      partitions: [{ indexName: userListIndexName(partition.scope, read.sort), attribute: USER_INDEX_ATTRIBUTES.scope[partition.scope], value: partition.value }],
      ...(filterOf(partition) ? { filter: filterOf(partition) } : {}),
    }));
    const window: KeyWindow = read.prefix === undefined ? {} : prefixWindow(read.prefix);
    return { streams, window, sortAttribute: USER_INDEX_ATTRIBUTES.sort[read.sort] };
  }

  /** One page of the merge, after `after` (a sort key) when given, skipping `skip` items. */
  public async page(read: UserListRead, options: { ascending: boolean; skip: number; take: number; after?: string }): Promise<MergedPage> {
    const { streams, window, sortAttribute } = this.streams(read);
    return readMergedPage(this.client, {
      tableName: this.tableName,
      sortAttribute,
      streams,
      window: windowAfter(window, options.after, options.ascending),
      ascending: options.ascending,
      skip: options.skip,
      take: options.take,
      readBudget: PAGE_READ_BUDGET,
    });
  }

  /**
   * How many users a prefix-bounded listing holds. No counter can say it (every prefix of every
   * address would need one), so it is counted, within one read budget for all the partitions.
   */
  public async countPrefixed(read: UserListRead & { readonly prefix: string }): Promise<WindowCount> {
    const { streams, window, sortAttribute } = this.streams(read);
    let total: WindowCount = { count: 0, exact: true, scanned: 0 };
    for (const stream of streams) {
      if (total.scanned >= COUNT_READ_BUDGET) return { ...total, exact: false };
      const counted = await countWindow(this.client, {
        tableName: this.tableName,
        sortAttribute,
        partition: stream.partitions[0] as SortedStream['partitions'][number],
        window,
        ...(stream.filter ? { filter: stream.filter } : {}),
        readBudget: COUNT_READ_BUDGET - total.scanned,
      });
      total = { count: total.count + counted.count, exact: total.exact && counted.exact, scanned: total.scanned + counted.scanned };
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
