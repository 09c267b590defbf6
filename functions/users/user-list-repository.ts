import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Role, UserStatus } from '../shared/access/roles';
import { IndexQuery, type Counted, type ItemFilter } from '../shared/listing/index-query';
import { prefixRange, rangeFrom, type KeyRange } from '../shared/listing/key-range';
import { readMergedPage, type MergedPage } from '../shared/listing/merge-reader';
import type { SortedStream } from '../shared/listing/merged-streams';
import { ReadBudget } from '../shared/listing/read-budget';
import { USER_INDEX_ATTRIBUTES, userListIndexName, type USER_LIST_SCOPES, type USER_SORT_KEYS } from '../shared/tables/users-table';
import { totalsAttribute, usersKeys, type TotalsScope } from '../shared/tables/users-keys';

/**
 * The largest item of a users listing index: the table's keys (`USER#<16 digits>`, `PROFILE`), a
 * scope partition (`FAMILY#<16 digits>`), a sort key (a 254-character email, `#`, 16 digits) and
 * the summary (id, a 254-character email, role, `suspended`, a 64-character username), names
 * included, as DynamoDB sizes items
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 * A read is budgeted at it before it is sent, and charged what it cost once answered.
 */
export const USER_INDEX_ITEM_BYTES = 720;

/**
 * Read units one page of users may spend: what the offset budget's 10,000 summaries and some slack
 * cost at their usual size (about 200 bytes each), so that offset paging within its budget is served.
 */
export const USER_PAGE_READ_UNITS = 300;

/** Read units counting a name prefix may spend: about 2,000 summaries. No counter can say such a total. */
export const USER_PREFIX_COUNT_UNITS = 50;

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
  private readonly query: IndexQuery;

  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.query = new IndexQuery(client, tableName, USER_INDEX_ITEM_BYTES);
  }

  private streams(read: UserListRead): { streams: SortedStream[]; range: KeyRange } {
    const streams: SortedStream[] = read.partitions.map((partition) => {
      const filter = filterOf(partition);
      return {
        partition: { indexName: userListIndexName(partition.scope, read.sort), attribute: USER_INDEX_ATTRIBUTES.scope[partition.scope], value: partition.value, sortAttribute: USER_INDEX_ATTRIBUTES.sort[read.sort] },
        ...(filter ? { filter } : {}),
      };
    });
    return { streams, range: read.prefix === undefined ? {} : prefixRange(read.prefix) };
  }

  /** One page of the merge, from `edge` (where a cursor's walk stands) when given, skipping `skip` items. */
  public async page(read: UserListRead, options: { ascending: boolean; skip: number; take: number; edge?: string }): Promise<MergedPage<Record<string, unknown>>> {
    const { streams, range } = this.streams(read);
    return readMergedPage(this.query, {
      streams,
      range: rangeFrom(range, options.edge, options.ascending),
      ascending: options.ascending,
      skip: options.skip,
      take: options.take,
      budget: new ReadBudget(USER_PAGE_READ_UNITS),
    });
  }

  /**
   * How many users a prefix-bounded listing holds. No counter can say it (every prefix of every
   * address would need one), so it is counted, within one read budget for all the partitions.
   */
  public async countPrefixed(read: UserListRead & { readonly prefix: string }): Promise<Counted> {
    const { streams, range } = this.streams(read);
    return this.query.count({ parts: streams, range }, new ReadBudget(USER_PREFIX_COUNT_UNITS));
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
