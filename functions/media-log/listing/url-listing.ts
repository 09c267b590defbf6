import { COUNT_READ_BUDGET } from '../../shared/listing/pagination';
import { compareKeys, windowAfter, type KeyWindow } from '../../shared/listing/key-window';
import { MEDIA_LOG_ATTRIBUTES } from '../../shared/tables/media-log-table';
import { mediaLogKeys, urlHash } from '../model/keys';
import { entryMatches, filtersStatuses, indexFilter, MAX_IN_OPERANDS } from './entry-filter';
import type { MediaLogIndexReader } from './index-reader';
import type { EntryPage } from './index-reads';
import { indexPartition } from './list-plan';
import type { ResolvedListing } from './resolved-listing';

/**
 * A listing filtered on one url reads the url's one partition (its hash, all time) and counts its
 * total there, within the count budget: exact up to {@link COUNT_READ_BUDGET} items read,
 * `total-exact: false` beyond. A url keeps no counters, because most urls are requested a few
 * times: counters of their own would be items the fold writes for almost every entry, for listings
 * that read a handful of entries. The count's read is the page's too: a page that lies among the
 * items counted costs no Query of its own, only the BatchGetItem of its entries.
 */

/** What a url listing found: the page and the total. */
export interface UrlPage extends EntryPage {
  readonly total: { readonly count: number; readonly exact: boolean };
}

/**
 * The parts of a url listing: the url's partition, with the caller's users checked on each index
 * item. A family of more than {@link MAX_IN_OPERANDS} users is split into filters of that many
 * (one IN each, DynamoDB's limit) over the same partition; their items are disjoint.
 */
function urlParts(listing: ResolvedListing, url: string) {
  const partition = indexPartition('url', mediaLogKeys.url(urlHash(url)));
  const part = (filter: ReturnType<typeof indexFilter>) => ({ partition, ...(filter ? { filter } : {}) });
  if (listing.scope.kind === 'all') return [part(indexFilter(listing.scope.exclude.length > 0 ? { excludeUserIds: listing.scope.exclude } : {}))];
  const parts = [];
  for (let offset = 0; offset < listing.scope.ids.length; offset += MAX_IN_OPERANDS) parts.push(part(indexFilter({ userIds: listing.scope.ids.slice(offset, offset + MAX_IN_OPERANDS) })));
  return parts;
}

/** A page of a url listing, and the url's total within the count budget. */
export async function listUrl(reader: MediaLogIndexReader, listing: ResolvedListing, url: string, window: KeyWindow): Promise<UrlPage> {
  const parts = urlParts(listing, url);
  const statuses = filtersStatuses(listing.statuses) ? listing.statuses : undefined;
  const scanned = await reader.scan({ parts, window, readBudget: COUNT_READ_BUDGET, ascending: listing.ascending, ...(statuses ? { check: (entry) => entryMatches(entry, { statuses }) } : {}) });
  const total = { count: scanned.items.length, exact: scanned.exact };
  // Every entry the page returns is checked for the url itself, and for the statuses.
  const check = (entry: Parameters<typeof entryMatches>[0]) => entryMatches(entry, { url, ...(statuses ? { statuses } : {}) });
  const { page } = listing;
  const key = (item: Record<string, unknown>) => String(item[MEDIA_LOG_ATTRIBUTES.sendKey]);
  const after = page.after;
  const first = after === undefined ? page.offset : scanned.items.findIndex((item) => (listing.ascending ? compareKeys(key(item), after) > 0 : compareKeys(key(item), after) < 0));
  const inScan = first >= 0 && (scanned.exact || first + page.limit <= scanned.items.length);
  if (!inScan) {
    // The page lies beyond what the count read: read it on its own (a url's requests are few, so offset paging skips them entry by entry).
    const read = await reader.page({
      streams: parts.map(({ partition, filter }) => ({ partitions: [partition], ...(filter ? { filter } : {}), checked: statuses !== undefined })),
      window: windowAfter(window, after, listing.ascending),
      ascending: listing.ascending,
      skip: after === undefined ? page.offset : 0,
      take: page.limit,
      check,
    });
    return { ...read, total };
  }
  const items = scanned.items.slice(first, first + page.limit);
  const entries = await reader.entriesOf(items, check);
  const last = items[items.length - 1];
  return { entries, ...(last === undefined ? {} : { resumeAfter: key(last) }), more: first + items.length < scanned.items.length || !scanned.exact, budgetSpent: false, total };
}
