import type { IndexPartition, ItemFilter } from '../../shared/listing/index-query';
import type { KeyRange } from '../../shared/listing/key-range';
import type { SortedStream } from '../../shared/listing/merged-streams';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, type MediaLogPartitionKind } from '../../shared/tables/media-log-table';
import { matchingCount, sumBuckets, TOTAL_ATTRIBUTE, type CounterBucket } from '../model/counters';
import { isIndexedStatus, STATUS_FIELDS, type IndexedStatus, type StatusField } from '../model/entry-fields';
import { mediaLogKeys, scopeName, STATUS_STORAGE, urlHash, type CounterScope } from '../model/keys';
import { allShards, SHARDS } from '../model/shards';
import { bucketsTouched } from '../model/time-buckets';
import { entryMatches, filtersStatuses, indexFilter, MAX_IN_OPERANDS, type EntryCheck } from './entry-filter';
import type { ListingRequest } from './list-request';
import { countedScopes, type CountedScopes, type ListingScope, type MemberScope } from './listing-scope';
import { COUNT_READ_UNITS, ENTRY_READ_UNITS, INDEX_ITEM_UNITS, QUERY_UNITS, URL_COUNT_READ_UNITS } from './read-costs';

/**
 * The plan of a listing: a pure function of the request and the month counters read for it, which
 * says which index partitions a page merges, what each entry must pass once read, and where the
 * total comes from. The reader runs it (index-reader.ts); nothing here reads.
 *
 * Candidates for a page are the listing's own partitions (the shards of each counted scope) with
 * the statuses checked on the entries read, or, for a filtered status field whose values all have
 * index items, those values' shards with the rest checked. The month counters say what each would
 * read; the cheaper wins, so a rare status is read from its own partitions instead of being searched
 * for among all entries. A url listing reads the url's partitions (its shards) and counts them there.
 */

/** The month counters to read before planning: every counted and hidden scope, for the months the range touches. */
export interface CounterReads {
  readonly scopes: readonly CounterScope[];
  /** Also the whole log's: a users listing may weigh the status partitions, which hold every user's entries. */
  readonly wholeLog: boolean;
  /** The month buckets, as a range of the counters' sort keys. */
  readonly months: KeyRange;
}

/** The month counters a listing plans and counts with, for the months of its range. */
export class MonthCounters {
  private readonly byScope: ReadonlyMap<string, readonly CounterBucket[]>;

  public constructor(
    scopes: readonly CounterScope[],
    buckets: readonly (readonly CounterBucket[])[],
    /** The whole log's months, when a users listing weighs the status partitions. */
    public readonly wholeLog?: readonly CounterBucket[],
  ) {
    this.byScope = new Map(scopes.map((scope, index) => [scopeName(scope), buckets[index] ?? []]));
  }

  /** The month buckets of one scope (none when it has no entries in the range). */
  public of(scope: CounterScope): readonly CounterBucket[] {
    return this.byScope.get(scopeName(scope)) ?? [];
  }
}

/** Where a listing's total comes from, and what counting entry by entry may spend of the request's budget. */
export type TotalPlan =
  /** The counters of the counted scopes, less the hidden ones (scope-counting.ts). */
  | { readonly kind: 'counters'; readonly scopes: CountedScopes; readonly readUnits: number }
  /** Counting the page's partitions, reading the entries when `check` is set. */
  | { readonly kind: 'count'; readonly check?: EntryCheck; readonly readUnits: number };

/** What a listing reads. */
export interface ListingPlan {
  /** The streams a page merges. */
  readonly streams: readonly SortedStream[];
  /** What an entry must pass once read by key, beyond what its index item shows (statuses, the url itself). */
  readonly check?: EntryCheck;
  /** Whether entries passed over before a page (offset paging) are read and checked too: a status filter, which no index item shows. */
  readonly checkSkipped: boolean;
  readonly total: TotalPlan;
}

/** A partition of a listing index. */
export function indexPartition(kind: MediaLogPartitionKind, value: string): IndexPartition {
  return { indexName: mediaLogIndexName(kind), attribute: MEDIA_LOG_ATTRIBUTES.partition[kind], value, sortAttribute: MEDIA_LOG_ATTRIBUTES.sendKey };
}

/** The partition of one shard of a counted scope (all time: a page's range bounds it). */
export function scopePartition(scope: CounterScope, shard: number): IndexPartition {
  if (scope.kind === 'all') return indexPartition('log', mediaLogKeys.log(shard));
  return scope.kind === 'user' ? indexPartition('user', mediaLogKeys.user(scope.userId, shard)) : indexPartition('family', mediaLogKeys.family(scope.familyId, shard));
}

/** The shards of a counted scope's partitions (a family is sharded like a user: keys.ts). */
export function scopeShards(scope: CounterScope): number[] {
  return allShards(scope.kind === 'all' ? SHARDS.log : SHARDS.user);
}

/** The index filter of a listing of everyone that hides some users (an admin's root users). */
function hiddenUsersFilter(request: ListingRequest): ItemFilter | undefined {
  return request.scope.kind === 'all' && request.scope.exclude.length > 0 ? indexFilter({ excludeUserIds: request.scope.exclude }) : undefined;
}

/**
 * Whether the status partitions are worth weighing (and so the whole log's counters are needed): a
 * status filter on a field whose values all have index items, and a user set small enough for one
 * IN on the status partitions.
 */
function considersStatusPartitions(request: ListingRequest): boolean {
  const indexable = STATUS_FIELDS.some((field) => request.statuses[field]?.every(isIndexedStatus) === true);
  // A family's partitions are read alone: the status partitions' items carry a user, not a family.
  if (request.scope.kind === 'family') return false;
  return request.url === undefined && indexable && (request.scope.kind === 'all' || request.scope.ids.length <= MAX_IN_OPERANDS);
}

/** The month counters a request needs read before it can be planned; none for a url listing (a url keeps no counters). */
export function counterReadsOf(request: ListingRequest): CounterReads | null {
  if (request.url !== undefined) return null;
  const { counted, hidden } = countedScopes(request.scope);
  return { scopes: [...counted, ...hidden], wholeLog: request.scope.kind === 'users' && considersStatusPartitions(request), months: bucketsTouched('month', request.range) };
}

/** A stream of one partition with its expectations (shares of the matches and of what is read for them). */
function stream(partition: IndexPartition, filter: ItemFilter | undefined, matches: number, candidates: number): SortedStream {
  return { partition, ...(filter ? { filter } : {}), expectedMatches: matches, expectedCandidates: candidates };
}

/** Streams a page could merge, and whether their candidates' statuses are checked on the entries (each read by key to know). */
interface Candidates {
  readonly streams: SortedStream[];
  readonly checked: boolean;
}

/** The streams of the listing's own partitions: per counted scope with matches in the range, one per shard. */
function ownPartitions(request: ListingRequest, counted: readonly CounterScope[], months: MonthCounters): Candidates {
  const filter = hiddenUsersFilter(request);
  const streams = counted.flatMap((scope) => {
    const buckets = months.of(scope);
    const matches = buckets.reduce((sum, { counts }) => sum + matchingCount(counts, request.statuses), 0);
    const candidates = buckets.reduce((sum, { counts }) => sum + (counts[TOTAL_ATTRIBUTE] ?? 0), 0);
    const shards = scopeShards(scope);
    return matches === 0 ? [] : shards.map((shard) => stream(scopePartition(scope, shard), filter, matches / shards.length, candidates / shards.length));
  });
  return { streams, checked: filtersStatuses(request.statuses) };
}

/** The streams of a filtered status field's values: every shard of each value, over all time, the rest checked on the entries. */
function statusPartitions(field: StatusField, values: readonly IndexedStatus[], request: ListingRequest & { readonly scope: MemberScope }, counted: readonly CounterScope[], months: MonthCounters): Candidates {
  const { [field]: _field, ...others } = request.statuses;
  const filter = request.scope.kind === 'users' ? indexFilter({ userIds: request.scope.ids }) : hiddenUsersFilter(request);
  const scopeMonths = sumBuckets(counted.map((scope) => months.of(scope)));
  const wholeLog = request.scope.kind === 'all' ? scopeMonths : (months.wholeLog ?? []);
  const streams = values.flatMap((value) => {
    const matches = scopeMonths.reduce((sum, { counts }) => sum + matchingCount(counts, { ...others, [field]: [value] }), 0);
    // The value's partitions hold every user's entries: candidates are the whole log's entries with that value.
    const candidates = wholeLog.reduce((sum, { counts }) => sum + matchingCount(counts, { [field]: [value] }), 0);
    const shards = mediaLogKeys.statusShards(value);
    return matches === 0 ? [] : shards.map((partition) => stream(indexPartition(STATUS_STORAGE[field].index, partition), filter, matches / shards.length, candidates / shards.length));
  });
  return { streams, checked: filtersStatuses(others) };
}

/**
 * What a page of `take` entries costs in read units with these streams: a Query per stream, the
 * index items read for the page's share of each (candidates per match), and the entries read by
 * key (every candidate of checked streams, the matches of the others).
 */
function pageCost({ streams, checked }: Candidates, take: number): number {
  const matches = Math.max(1, streams.reduce((sum, candidate) => sum + (candidate.expectedMatches ?? 0), 0));
  return streams.reduce((sum, candidate) => {
    const share = (take * (candidate.expectedMatches ?? 0)) / matches;
    const perMatch = Math.max(1, (candidate.expectedCandidates ?? 0) / Math.max(1e-9, candidate.expectedMatches ?? 0));
    return sum + QUERY_UNITS + share * perMatch * INDEX_ITEM_UNITS + share * (checked ? perMatch : 1) * ENTRY_READ_UNITS;
  }, 0);
}

/** The streams of a listing without a url: the plan that costs a page the fewest read units. */
function planStreams(request: ListingRequest, counted: readonly CounterScope[], months: MonthCounters): SortedStream[] {
  let best = ownPartitions(request, counted, months);
  const { scope } = request;
  if (scope.kind === 'family' || !considersStatusPartitions(request) || (scope.kind === 'users' && months.wholeLog === undefined)) return best.streams;
  const take = Math.max(1, request.page.limit);
  for (const field of STATUS_FIELDS) {
    const values = request.statuses[field];
    if (values === undefined || !values.every(isIndexedStatus)) continue;
    const candidate = statusPartitions(field, values as readonly IndexedStatus[], { ...request, scope }, counted, months);
    if (pageCost(candidate, take) < pageCost(best, take)) best = candidate;
  }
  return best.streams;
}

/**
 * The url's partitions (its shards, keys.ts), with the caller's users checked on each index item.
 * A family of more than {@link MAX_IN_OPERANDS} users is split into filters of that many (one IN
 * each, DynamoDB's limit) over the same partitions; their items are disjoint.
 */
function urlStreams(request: ListingRequest, url: string): SortedStream[] {
  const partitions = mediaLogKeys.urlShards(urlHash(url)).map((value) => indexPartition('url', value));
  const parts = (filter: ItemFilter | undefined): SortedStream[] => partitions.map((partition) => ({ partition, ...(filter ? { filter } : {}) }));
  // A url's index items carry a user, not a family: a family's url listing is resolved to its members (listing-scope.ts).
  if (request.scope.kind === 'family') throw new Error('a url listing takes its scope by users, not by family');
  if (request.scope.kind === 'all') return parts(hiddenUsersFilter(request));
  const streams: SortedStream[] = [];
  for (let offset = 0; offset < request.scope.ids.length; offset += MAX_IN_OPERANDS) streams.push(...parts(indexFilter({ userIds: request.scope.ids.slice(offset, offset + MAX_IN_OPERANDS) })));
  return streams;
}

/** Whether an entry belongs in a listing: the `request` filter's check, the one entry read by key. */
export function entryCheck(request: ListingRequest): EntryCheck {
  const { scope, range } = request;
  // An entry read by id carries no family a check could trust during a move: such a listing is resolved to its members (listing-scope.ts).
  if (scope.kind === 'family') throw new Error('a request filter takes its scope by users, not by family');
  return (entry) =>
    (scope.kind === 'all' ? !scope.exclude.includes(entry['user-id']) : scope.ids.includes(entry['user-id'])) &&
    (range.from === undefined || entry.send >= range.from) &&
    (range.to === undefined || entry.send < range.to) &&
    entryMatches(entry, { statuses: request.statuses, ...(request.url === undefined ? {} : { url: request.url }) });
}

/**
 * `check`, and for a family with users being re-keyed into or out of it, the exclusion of their
 * entries: until the re-key is done their index items may sit in the family they left, and a
 * family's listing never shows another family's entries.
 */
function withoutMovingUsers(scope: ListingScope, check: EntryCheck | undefined): EntryCheck | undefined {
  if (scope.kind !== 'family' || scope.moving.length === 0) return check;
  const { moving } = scope;
  return (entry) => !moving.includes(entry['user-id']) && (check === undefined || check(entry));
}

/** The plan of a listing by its indexes (not the `request` filter), from the month counters read for it (none for a url). */
export function planListing(request: ListingRequest, months: MonthCounters | null): ListingPlan {
  const statuses = filtersStatuses(request.statuses) ? request.statuses : undefined;
  const statusCheck: EntryCheck | undefined = statuses === undefined ? undefined : (entry) => entryMatches(entry, { statuses });
  if (request.url !== undefined) {
    const { url } = request;
    // Every entry a page returns is checked for the url itself (a hash names the partition), and for the statuses.
    return {
      streams: urlStreams(request, url),
      check: (entry) => entryMatches(entry, { url, ...(statuses ? { statuses } : {}) }),
      checkSkipped: statuses !== undefined,
      total: { kind: 'count', ...(statusCheck ? { check: statusCheck } : {}), readUnits: URL_COUNT_READ_UNITS },
    };
  }
  const scopes = countedScopes(request.scope);
  const check = withoutMovingUsers(request.scope, statusCheck);
  return {
    streams: planStreams(request, scopes.counted, months ?? new MonthCounters([], [])),
    ...(check ? { check } : {}),
    checkSkipped: check !== undefined,
    total: { kind: 'counters', scopes, readUnits: COUNT_READ_UNITS },
  };
}
