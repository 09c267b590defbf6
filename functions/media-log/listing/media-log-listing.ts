import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Caller } from '../../shared/access/roles';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { tableName } from '../../shared/config/data-config';
import { CursorCodec } from '../../shared/listing/cursor';
import { cursorConfig } from '../../shared/listing/cursor-config';
import { intersectWindows, keyBefore, windowAfter, type KeyWindow } from '../../shared/listing/key-window';
import { DEFAULT_LIMIT, queryFingerprint, requestedPage } from '../../shared/listing/pagination';
import { mediaLogCountsTable, mediaLogTable } from '../../shared/tables/media-log-table';
import { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { usersTable } from '../../shared/tables/users-table';
import type { StatusFilter } from '../model/counters';
import { STATUS_FIELDS } from '../model/entry-fields';
import { COUNTER_SCOPES } from '../model/keys';
import type { MediaLogEntry, MediaLogFilter, MediaLogList } from '../model/schemas';
import { bucketOf, instantAfter, instantBefore, TIME_MAX, TIME_MIN, type TimeRange } from '../model/time-buckets';
import { entryMatches, filtersStatuses } from './entry-filter';
import { MediaLogIndexReader } from './index-reader';
import { COUNTER_READS_IN_FLIGHT, type EntryPage } from './index-reads';
import { considersStatusPartitions, planStreams } from './list-plan';
import type { ListMediaLogQuery } from './list-schemas';
import { countedScopes, FamilyScopes } from './listing-scope';
import { locate, segmentsOf, totalOf, type PagePosition } from './range-counts';
import { MonthCounters, type ResolvedListing } from './resolved-listing';
import { scopeCounting } from './scope-counting';
import { listUrl } from './url-listing';

/** What a read found: the page's entries, the total, and where the next page resumes. */
interface PageResult extends EntryPage {
  readonly total: { readonly count: number; readonly exact: boolean };
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
 * listing picks them; every page is merged from the index partitions within its read budget and
 * its entries read by key (index-reader.ts).
 */
export class MediaLogListing {
  public constructor(
    private readonly reader: MediaLogIndexReader,
    private readonly scopes: FamilyScopes,
    private readonly cursors: CursorCodec,
  ) {}

  /** One page of the log. */
  public async list(caller: Caller, query: ListMediaLogQuery): Promise<MediaLogList> {
    const order = query.sort?.order ?? 'desc';
    const fingerprint = queryFingerprint(caller, query, query.pagination?.limit ?? DEFAULT_LIMIT);
    const page = requestedPage(query.pagination, this.cursors, fingerprint);
    const scope = await this.scopes.resolve(caller, query['user-id']);
    const listing: ResolvedListing = {
      scope,
      counted: countedScopes(scope),
      statuses: statusFilterOf(query),
      ...(query.url === undefined ? {} : { url: query.url }),
      range: { start: query.send?.from ?? TIME_MIN, end: query.send?.to === undefined ? TIME_MAX : instantAfter(query.send.to) },
      ascending: order === 'asc',
      page,
    };
    const result = query.request === undefined ? await this.byIndexes(listing) : await this.byRequest(listing, query.request);
    const log = result.entries;
    const beforeEnd = !result.total.exact || page.offset + log.length < result.total.count;
    const continues = result.more && result.resumeAfter !== undefined && ((log.length === page.limit && beforeEnd) || result.budgetSpent);
    const next = continues ? this.cursors.encode({ page: page.page + 1, after: result.resumeAfter as string }, fingerprint) : null;
    return {
      filter: echoFilter(query),
      log,
      pagination: { count: log.length, limit: page.limit, page: page.page, total: result.total.count, next, 'total-exact': result.total.exact },
      sort: { field: 'send', order },
    };
  }

  /** `request` filter: one GetItem, then the other filters and the scope checked on the entry. */
  private async byRequest(listing: ResolvedListing, id: string): Promise<PageResult> {
    const entry = await this.reader.entry(id);
    const { scope } = listing;
    const inScope = entry !== null && (scope.kind === 'all' ? !scope.exclude.includes(entry['user-id']) : scope.ids.includes(entry['user-id']));
    const matches =
      inScope &&
      entryMatches(entry, { statuses: listing.statuses, ...(listing.url !== undefined ? { url: listing.url } : {}) }) &&
      entry.send >= listing.range.start &&
      entry.send < listing.range.end;
    const shown = matches && listing.page.offset === 0 && listing.page.after === undefined;
    return { entries: shown && entry ? [entry] : [], total: { count: matches ? 1 : 0, exact: true }, more: false, budgetSpent: false };
  }

  /**
   * Every other listing: the month counters plan the streams and give the total; a deep page is
   * located from the counters. Page 1 and cursor pages read the entries while the total is summed.
   */
  private async byIndexes(listing: ResolvedListing): Promise<PageResult> {
    const { scope, range, page } = listing;
    if (scope.kind === 'users' && scope.ids.length === 0) return { entries: [], total: { count: 0, exact: true }, more: false, budgetSpent: false };
    const window = rangeWindow(range);
    if (listing.url !== undefined) return listUrl(this.reader, listing, listing.url, window);
    const counters = await this.monthCounters(listing);
    const streams = planStreams(listing, counters);
    const source = scopeCounting(this.reader, listing, counters);
    const check = filtersStatuses(listing.statuses) ? (entry: MediaLogEntry) => entryMatches(entry, { statuses: listing.statuses }) : undefined;
    const read = (readWindow: KeyWindow, skip: number) =>
      this.reader.page({ streams, window: readWindow, ascending: listing.ascending, skip, take: page.limit, ...(check ? { check } : {}) });
    if (page.offset === 0 || page.after !== undefined) {
      const [segments, found] = await Promise.all([segmentsOf(source, range), read(windowAfter(window, page.after, listing.ascending), 0)]);
      return { ...found, total: totalOf(segments) };
    }
    const segments = await segmentsOf(source, range);
    const total = totalOf(segments);
    const position = page.offset < total.count ? await locate(source, segments, page.offset, !listing.ascending) : null;
    if (position === null) return { entries: [], total, more: false, budgetSpent: false };
    return { ...(await read(locatedWindow(window, position, listing.ascending), position.skip)), total };
  }

  private monthRange(range: TimeRange): { first?: string; last?: string } {
    return {
      ...(range.start === TIME_MIN ? {} : { first: bucketOf('month', range.start) }),
      ...(range.end === TIME_MAX ? {} : { last: bucketOf('month', instantBefore(range.end)) }),
    };
  }

  /** The month counters of every counted and hidden scope for the months of the range, and the whole log's when a users listing may read status partitions. */
  private async monthCounters(listing: ResolvedListing): Promise<MonthCounters> {
    const all = [...listing.counted.counted, ...listing.counted.hidden];
    const months = this.monthRange(listing.range);
    const wholeLog = listing.scope.kind === 'users' && considersStatusPartitions(listing);
    const [lists, log] = await Promise.all([
      mapConcurrently(all, COUNTER_READS_IN_FLIGHT, (scope) => this.reader.counterBuckets(scope, 'month', null, months)),
      wholeLog ? this.reader.counterBuckets(COUNTER_SCOPES.all, 'month', null, months) : Promise.resolve(undefined),
    ]);
    return new MonthCounters(all, lists, log);
  }
}

/**
 * The listing on `client`, over the tables the data configuration names (the entries, their
 * counters, and the users table for the callers' families), its cursors sealed with the configured
 * secret: what GET /media/log serves, and what the bench and the read-cost tests measure.
 */
export function createMediaLogListing(client: DynamoDBDocumentClient): MediaLogListing {
  return new MediaLogListing(
    new MediaLogIndexReader(client, { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) }),
    new FamilyScopes(new UserScopeReader(client, tableName(usersTable))),
    new CursorCodec('media-log', cursorConfig().secret),
  );
}
