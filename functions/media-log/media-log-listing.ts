import { ValidationError } from '../shared/errors';
import type { Caller } from '../shared/access/roles';
import { CURSOR_PARAMETER, decodeCursor, encodeCursor, type CursorState } from '../shared/pagination/cursor';
import type { StatusFilter } from './counter-keys';
import { entryFilter, entryMatches } from './entry-filter';
import { readMerged, type KeyWindow } from './entry-streams';
import { considersStatusPartitions, planStreams } from './list-plan';
import { bucketOf, entryFromItem, instantAfter, instantBefore, keyAfter, keyBefore, mediaLogKeys, SEND_KEY_PATTERN, TIME_MAX, TIME_MIN } from './media-log-keys';
import { newReadStats, type MediaLogReader, type ReadStats } from './media-log-reader';
import { locate, segmentsOf, totalOf, type PagePosition, type TimeRange } from './range-counts';
import { counterScopesOf, scopeCounting } from './scope-counting';
import type { FamilyScopes, ListingScope } from './scope';
import { STATUS_FIELDS, type ListMediaLogQuery, type MediaLogFilter, type MediaLogList } from './schemas';

const DEFAULT_LIMIT = 10;

/** One page to read, resolved from the query and the caller. */
interface PageRequest {
  readonly scope: ListingScope;
  readonly statuses: StatusFilter;
  readonly range: TimeRange;
  readonly ascending: boolean;
  /** Entries before this page in sort order. */
  readonly offset: number;
  readonly limit: number;
  /** Send key the page starts after (from a cursor). */
  readonly after?: string;
}

/** What a read found: the page's items, the exact total, and the key of its last item. */
interface PageResult {
  readonly items: Record<string, unknown>[];
  readonly total: number;
  readonly last?: string;
}

function statusFilterOf(query: ListMediaLogQuery): StatusFilter {
  return Object.fromEntries(STATUS_FIELDS.filter((field) => query[field] !== undefined).map((field) => [field, query[field]]));
}

function echoFilter(query: ListMediaLogQuery): MediaLogFilter {
  const { send } = query;
  return {
    ...(send ? { created: { ...(send.from !== undefined ? { from: send.from } : {}), ...(send.to !== undefined ? { to: send.to } : {}) } } : {}),
    ...(query.request !== undefined ? { request: query.request } : {}),
    ...statusFilterOf(query),
    ...(query.url !== undefined ? { url: query.url } : {}),
    ...(query['user-id'] !== undefined ? { 'user-id': query['user-id'] } : {}),
  } as MediaLogFilter;
}

/** What a cursor is bound to: a different query, limit or caller cannot reuse it. */
function fingerprint(caller: Caller, query: ListMediaLogQuery, limit: number): string {
  const { pagination: _pagination, ...rest } = query;
  return JSON.stringify([caller.userId, limit, rest]);
}

function cursorKey(cursor: CursorState): string {
  const after = (cursor.positions[0] as Record<string, unknown> | null | undefined)?.after;
  if (typeof after !== 'string' || !SEND_KEY_PATTERN.test(after)) throw new ValidationError([{ name: CURSOR_PARAMETER, reason: 'Not a cursor of this listing.' }]);
  return after;
}

function minKey(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined || a < b ? a : b;
}

function maxKey(a: string | undefined, b: string | undefined): string | undefined {
  return a === undefined ? b : b === undefined || a > b ? a : b;
}

/** The send-key window of a page: the range, narrowed to what follows the cursor or the located position. */
function pageWindow(request: PageRequest, position?: PagePosition): KeyWindow {
  let lo = request.range.start === TIME_MIN ? undefined : request.range.start;
  let hi = request.range.end === TIME_MAX ? undefined : request.range.end;
  if (request.after !== undefined) {
    if (request.ascending) lo = maxKey(lo, keyAfter(request.after));
    else hi = minKey(hi, keyBefore(request.after));
  } else if (position !== undefined) {
    if (request.ascending) lo = maxKey(lo, position.bound === TIME_MIN ? undefined : position.bound);
    else hi = minKey(hi, position.bound === TIME_MAX ? undefined : position.bound);
  }
  return { lo, hi };
}

/**
 * GET /media/log: the entries in the caller's scope, filtered, in send order, paginated, with an
 * exact total from the counters. See media-log-table.ts for the indexes and list-plan.ts for how
 * a listing picks them.
 */
export class MediaLogListing {
  public constructor(
    private readonly reader: MediaLogReader,
    private readonly scopes: FamilyScopes,
  ) {}

  /** One page of the log; what it read is added to `stats`. */
  public async list(caller: Caller, query: ListMediaLogQuery, stats: ReadStats = newReadStats()): Promise<MediaLogList> {
    const order = query.sort?.order ?? 'desc';
    const limit = query.pagination?.limit ?? DEFAULT_LIMIT;
    const key = fingerprint(caller, query, limit);
    const cursor = query.pagination?.cursor === undefined ? undefined : decodeCursor(query.pagination.cursor, key);
    if (cursor && query.pagination?.page !== undefined && query.pagination.page !== cursor.page) {
      throw new ValidationError([{ name: 'pagination[page]', reason: 'Omit it with a cursor, or give the page the cursor leads to.' }]);
    }
    const page = cursor?.page ?? query.pagination?.page ?? 1;
    const request: PageRequest = {
      scope: await this.scopes.resolve(caller, query['user-id']),
      statuses: statusFilterOf(query),
      range: {
        start: query.send?.from ?? TIME_MIN,
        end: query.send?.to === undefined ? TIME_MAX : instantAfter(query.send.to),
      },
      ascending: order === 'asc',
      offset: (page - 1) * limit,
      limit,
      ...(cursor ? { after: cursorKey(cursor) } : {}),
    };
    const result = await this.read(request, query, stats);
    const log = result.items.map(entryFromItem);
    const more = log.length === limit && request.offset + log.length < result.total && result.last !== undefined;
    const next = more ? encodeCursor({ page: page + 1, query: key, positions: [{ after: result.last as string }] }) : null;
    return {
      filter: echoFilter(query),
      log,
      pagination: { count: log.length, limit, page, total: result.total, next },
      sort: { field: 'send', order },
    };
  }

  private read(request: PageRequest, query: ListMediaLogQuery, stats: ReadStats): Promise<PageResult> {
    if (request.scope.kind === 'users' && request.scope.ids.length === 0) return Promise.resolve({ items: [], total: 0 });
    if (query.request !== undefined) return this.byRequest(request, query.request, query.url, stats);
    if (query.url !== undefined) return this.byUrl(request, query.url, stats);
    return this.byIndexes(request, stats);
  }

  /** `request` filter: one GetItem, then the other filters and the scope checked on the entry. */
  private async byRequest(request: PageRequest, id: string, url: string | undefined, stats: ReadStats): Promise<PageResult> {
    const item = await this.reader.entry(id, stats);
    const entry = item === null ? null : entryFromItem(item);
    const inScope =
      entry !== null &&
      (request.scope.kind === 'all' ? !request.scope.exclude.includes(entry['user-id']) : request.scope.ids.includes(entry['user-id']));
    const matches =
      inScope &&
      entryMatches(entry, { statuses: request.statuses, ...(url !== undefined ? { url } : {}) }) &&
      entry.send >= request.range.start &&
      entry.send < request.range.end;
    const shown = matches && request.offset === 0 && request.after === undefined;
    return { items: shown && item ? [item] : [], total: matches ? 1 : 0 };
  }

  /** `url` filter: the url's own partition, the other filters checked on each entry; the total counts it. */
  private async byUrl(request: PageRequest, url: string, stats: ReadStats): Promise<PageResult> {
    const userIds = request.scope.kind === 'users' ? { userIds: request.scope.ids } : { excludeUserIds: request.scope.exclude };
    const filter = entryFilter({ statuses: request.statuses, url, ...userIds });
    const partition = mediaLogKeys.url(url);
    const stream = { kind: 'url' as const, partitions: [{ value: partition }], filter, expectedMatches: 1, expectedCandidates: 1 };
    const [total, page] = await Promise.all([
      this.reader.count({ kind: 'url', partition, ...pageWindow({ ...request, after: undefined }), filter }, stats),
      readMerged(this.reader, [stream], pageWindow(request), {
        ascending: request.ascending,
        skip: request.after === undefined ? request.offset : 0,
        take: request.limit,
      }, stats),
    ]);
    return { ...page, total };
  }

  /**
   * Every other listing: the month counters plan the streams and give the total; a deep page is
   * located from the counters. Page 1 and cursor pages read the entries while the total is summed.
   */
  private async byIndexes(request: PageRequest, stats: ReadStats): Promise<PageResult> {
    const { scope, statuses, range } = request;
    const months = {
      ...(range.start === TIME_MIN ? {} : { first: bucketOf('month', range.start) }),
      ...(range.end === TIME_MAX ? {} : { last: bucketOf('month', instantBefore(range.end)) }),
    };
    const scopes = counterScopesOf(scope);
    const wholeLog = scope.kind === 'users' && considersStatusPartitions(scope, statuses);
    const [lists, all] = await Promise.all([
      Promise.all(scopes.map((counterScope) => this.reader.counterBuckets(counterScope, 'month', null, months, stats))),
      wholeLog ? this.reader.counterBuckets('ALL', 'month', null, months, stats) : Promise.resolve(undefined),
    ]);
    const byScope = new Map(scopes.map((counterScope, index) => [counterScope, lists[index] ?? []]));
    const counters = { byScope, ...(scope.kind === 'all' ? { all: lists[0] } : all ? { all } : {}) };
    const streams = planStreams(scope, statuses, counters, request.ascending);
    const source = scopeCounting(this.reader, scope, statuses, byScope, stats);
    const readPage = (position: PagePosition | undefined, take: number) =>
      readMerged(this.reader, streams, pageWindow(request, position), { ascending: request.ascending, skip: position?.skip ?? 0, take }, stats);

    const hidden = scope.kind === 'all' ? await this.hiddenTotal(scope.exclude, statuses, range, months, stats) : 0;
    if (request.offset === 0 || request.after !== undefined) {
      const [segments, page] = await Promise.all([segmentsOf(source, range), readPage(undefined, request.limit)]);
      return { ...page, total: totalOf(segments) - hidden };
    }
    const segments = await segmentsOf(source, range);
    const total = totalOf(segments) - hidden;
    if (hidden > 0) {
      // The counters locate positions among all entries, hidden ones included: skip by reading instead.
      if (request.offset >= total) return { items: [], total };
      const page = await readMerged(this.reader, streams, pageWindow(request), { ascending: request.ascending, skip: request.offset, take: request.limit }, stats);
      return { ...page, total };
    }
    const position = request.offset < total ? await locate(source, segments, request.offset, !request.ascending) : null;
    if (position === null) return { items: [], total };
    return { ...(await readPage(position, Math.min(request.limit, total - request.offset))), total };
  }

  /** Entries of the hidden users in the listing's range and status filter, from their own counters. */
  private async hiddenTotal(
    ids: readonly number[],
    statuses: StatusFilter,
    range: TimeRange,
    months: { first?: string; last?: string },
    stats: ReadStats,
  ): Promise<number> {
    if (ids.length === 0) return 0;
    const scope: ListingScope = { kind: 'users', ids };
    const lists = await Promise.all(counterScopesOf(scope).map((counterScope) => this.reader.counterBuckets(counterScope, 'month', null, months, stats)));
    const byScope = new Map(counterScopesOf(scope).map((counterScope, index) => [counterScope, lists[index] ?? []]));
    return totalOf(await segmentsOf(scopeCounting(this.reader, scope, statuses, byScope, stats), range));
  }
}
