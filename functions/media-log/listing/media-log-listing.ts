import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../../shared/access/roles';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { tableName } from '../../shared/config/data-config';
import { CursorCodec } from '../../shared/listing/cursor';
import { cursorConfig } from '../../shared/listing/cursor-config';
import { intersectWindows, keyBefore, windowAfter, type KeyWindow } from '../../shared/listing/key-window';
import { readMergedPage, type ListedItem, type SortedStream } from '../../shared/listing/merge-reader';
import { DEFAULT_LIMIT, PAGE_READ_BUDGET, queryFingerprint, requestedPage, type PageRequest } from '../../shared/listing/pagination';
import { mediaLogCountsTable, mediaLogTable } from '../../shared/tables/media-log-table';
import { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { usersTable } from '../../shared/tables/users-table';
import type { StatusFilter } from '../model/counters';
import { entryFromItem } from '../model/entry-item';
import { mediaLogKeys, SEND_KEY_ATTRIBUTE, type CounterScope } from '../model/keys';
import type { ListMediaLogQuery } from './list-schemas';
import type { MediaLogFilter, MediaLogList } from '../model/schemas';
import { STATUS_FIELDS } from '../model/entry-fields';
import { bucketOf, instantAfter, instantBefore, TIME_MAX, TIME_MIN, type TimeRange } from '../model/time-buckets';
import { COUNTER_READS_IN_FLIGHT, CounterReader, type CounterBucket } from './index-reader';
import { entryMatches } from './entry-filter';
import { considersStatusPartitions, planStreams } from './list-plan';
import { countedScopes, FamilyScopes, type CountedScopes, type ListingScope } from './listing-scope';
import { locate, segmentsOf, totalOf, type PagePosition } from './range-counts';
import { scopeCounting } from './scope-counting';
import { countStreams, urlStreams } from './url-listing';

/** One page to read, resolved from the query and the caller. */
interface PageQuery {
  readonly listing: ListingScope;
  readonly statuses: StatusFilter;
  readonly url?: string;
  readonly range: TimeRange;
  readonly ascending: boolean;
  readonly page: PageRequest;
}

/** What a read found: the page's items, the total, and where the next page resumes. */
interface PageResult {
  readonly items: ListedItem[];
  readonly total: { readonly count: number; readonly exact: boolean };
  readonly resumeAfter?: string;
  readonly more: boolean;
  readonly budgetSpent?: boolean;
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

/** The send-key window of a time range. */
function rangeWindow(range: TimeRange): KeyWindow {
  return { ...(range.start === TIME_MIN ? {} : { lo: range.start }), ...(range.end === TIME_MAX ? {} : { hi: keyBefore(range.end) }) };
}

/** The window of a page located by the counters: from the located edge of its segment on. */
function locatedWindow(window: KeyWindow, position: PagePosition, ascending: boolean): KeyWindow {
  if (ascending) return position.bound === TIME_MIN ? window : intersectWindows(window, { lo: position.bound });
  return position.bound === TIME_MAX ? window : intersectWindows(window, { hi: keyBefore(position.bound) });
}

/**
 * GET /media/log: the entries in the caller's scope, filtered, in send order, paginated, with an
 * exact total from the counters. See media-log-table.ts for the indexes and list-plan.ts for how a
 * listing picks them; every page is read by the listing engine within its read budget.
 */
export class MediaLogListing {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly reader: CounterReader,
    private readonly scopes: FamilyScopes,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page of the log. */
  public async list(caller: Caller, query: ListMediaLogQuery): Promise<MediaLogList> {
    const order = query.sort?.order ?? 'desc';
    const fingerprint = queryFingerprint(caller, query, query.pagination?.limit ?? DEFAULT_LIMIT);
    const page = requestedPage(query.pagination, this.cursors, fingerprint);
    const request: PageQuery = {
      listing: await this.scopes.resolve(caller, query['user-id']),
      statuses: statusFilterOf(query),
      ...(query.url === undefined ? {} : { url: query.url }),
      range: { start: query.send?.from ?? TIME_MIN, end: query.send?.to === undefined ? TIME_MAX : instantAfter(query.send.to) },
      ascending: order === 'asc',
      page,
    };
    const result = query.request === undefined ? await this.byIndexes(request) : await this.byRequest(request, query.request);
    const log = result.items.map(entryFromItem);
    const beforeEnd = !result.total.exact || page.offset + log.length < result.total.count;
    const continues = result.more && result.resumeAfter !== undefined && ((log.length === page.limit && beforeEnd) || result.budgetSpent === true);
    const next = continues ? this.cursors.encode({ page: page.page + 1, after: result.resumeAfter as string }, fingerprint) : null;
    return {
      filter: echoFilter(query),
      log,
      pagination: { count: log.length, limit: page.limit, page: page.page, total: result.total.count, next, 'total-exact': result.total.exact },
      sort: { field: 'send', order },
    };
  }

  /** `request` filter: one GetItem, then the other filters and the scope checked on the entry. */
  private async byRequest(request: PageQuery, id: string): Promise<PageResult> {
    const item = await this.reader.entry(id);
    const entry = item === null ? null : entryFromItem(item);
    const { listing } = request;
    const inScope = entry !== null && (listing.kind === 'all' ? !listing.exclude.includes(entry['user-id']) : listing.ids.includes(entry['user-id']));
    const matches =
      inScope &&
      entryMatches(entry, { statuses: request.statuses, ...(request.url !== undefined ? { url: request.url } : {}) }) &&
      entry.send >= request.range.start &&
      entry.send < request.range.end;
    const shown = matches && request.page.offset === 0 && request.page.after === undefined;
    return { items: shown && item ? [item] : [], total: { count: matches ? 1 : 0, exact: true }, more: false };
  }

  /**
   * Every other listing: the month counters plan the streams and give the total; a deep page is
   * located from the counters. Page 1 and cursor pages read the entries while the total is summed.
   */
  private async byIndexes(request: PageQuery): Promise<PageResult> {
    const { listing, range } = request;
    if (listing.kind === 'users' && listing.ids.length === 0) return { items: [], total: { count: 0, exact: true }, more: false };
    if (request.url !== undefined) return this.byUrl(request, request.url);
    const scopes = countedScopes(listing);
    const months = await this.monthCounters(scopes, range);
    const wholeLog = listing.kind === 'users' && considersStatusPartitions({ listing, statuses: request.statuses })
      ? await this.reader.counterBuckets(mediaLogKeys.scope.all, 'month', null, this.monthRange(range))
      : undefined;
    const streams = planStreams({
      listing, scopes, statuses: request.statuses,
      months, ascending: request.ascending,
      ...((listing.kind === 'all' ? months.get(mediaLogKeys.scope.all) : wholeLog) === undefined ? {} : { allMonths: (listing.kind === 'all' ? months.get(mediaLogKeys.scope.all) : wholeLog) as CounterBucket[] }),
    });
    const source = scopeCounting(this.reader, this.client, this.tableName, { listing, scopes, statuses: request.statuses, months });
    const window = rangeWindow(range);
    const { page } = request;
    if (page.offset === 0 || page.after !== undefined) {
      const [segments, read] = await Promise.all([segmentsOf(source, range), this.readPage(streams, windowAfter(window, page.after, request.ascending), 0, page.limit, request.ascending)]);
      return { ...read, total: totalOf(segments) };
    }
    const segments = await segmentsOf(source, range);
    const total = totalOf(segments);
    const position = page.offset < total.count ? await locate(source, segments, page.offset, !request.ascending) : null;
    if (position === null) return { items: [], total, more: false };
    return { ...(await this.readPage(streams, locatedWindow(window, position, request.ascending), position.skip, page.limit, request.ascending)), total };
  }

  /**
   * A url filter: the url's one partition, read from the page's offset or cursor on, and its total
   * counted there within the count budget (url-listing.ts). A url's requests are few, so offset
   * paging skips them entry by entry.
   */
  private async byUrl(request: PageQuery, url: string): Promise<PageResult> {
    const streams = urlStreams(request.listing, request.statuses, url);
    const window = rangeWindow(request.range);
    const { page } = request;
    const [total, read] = await Promise.all([
      countStreams(this.client, this.tableName, streams, window),
      // A cursor page resumes after its key; a numbered page skips the pages before it.
      this.readPage(streams, windowAfter(window, page.after, request.ascending), page.after === undefined ? page.offset : 0, page.limit, request.ascending),
    ]);
    return { ...read, total };
  }

  private readPage(streams: readonly SortedStream[], window: KeyWindow, skip: number, take: number, ascending: boolean) {
    return readMergedPage(this.client, { tableName: this.tableName, sortAttribute: SEND_KEY_ATTRIBUTE, streams, window, ascending, skip, take, readBudget: PAGE_READ_BUDGET });
  }

  private monthRange(range: TimeRange): { first?: string; last?: string } {
    return {
      ...(range.start === TIME_MIN ? {} : { first: bucketOf('month', range.start) }),
      ...(range.end === TIME_MAX ? {} : { last: bucketOf('month', instantBefore(range.end)) }),
    };
  }

  /** The month counters of every counted and hidden scope, for the months of the range. */
  private async monthCounters(scopes: CountedScopes, range: TimeRange): Promise<Map<CounterScope, readonly CounterBucket[]>> {
    const all = [...scopes.counted, ...scopes.hidden];
    const lists = await mapConcurrently(all, COUNTER_READS_IN_FLIGHT, (scope) => this.reader.counterBuckets(scope, 'month', null, this.monthRange(range)));
    return new Map(all.map((scope, index) => [scope, lists[index] ?? []]));
  }
}

/**
 * The listing on `client`, over the tables the data configuration names (the entries, their
 * counters, and the users table for the callers' families), its cursors sealed with the configured
 * secret: what GET /media/log serves, and what the bench and the read-cost tests measure.
 */
export function createMediaLogListing(client: DynamoDBDocumentClient): MediaLogListing {
  const entries = tableName(mediaLogTable);
  return new MediaLogListing(
    client,
    entries,
    new CounterReader(client, entries, tableName(mediaLogCountsTable)),
    new FamilyScopes(new UserScopeReader(client, tableName(usersTable))),
    new CursorCodec('media-log', cursorConfig().secret),
  );
}
