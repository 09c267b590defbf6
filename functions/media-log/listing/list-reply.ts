import type { MergedPage } from '../../shared/listing/merge-reader';
import type { MediaLogEntry, MediaLogFilter, MediaLogList } from '../model/schemas';
import type { ListingRequest } from './list-request';
import type { ListMediaLogQuery } from './list-schemas';
import type { Total } from './range-counts';

/** What a listing read: its page (with the edge its walk resumes at) and its total. */
export interface ListingResult {
  readonly page: MergedPage<MediaLogEntry>;
  readonly total: Total;
}

/** The filters a query applied, as the reply echoes them: every parameter but the sort and the page, the send range as `created` (api-spec.md). */
function echoFilter({ send, sort: _sort, pagination: _pagination, ...filters }: ListMediaLogQuery): MediaLogFilter {
  return { ...(send ? { created: send } : {}), ...filters };
}

/**
 * The reply of GET /media/log: the page, the applied filter and sort, and the pagination object
 * with the total and, whenever the walk may go on, the cursor of the edge it resumes at.
 */
export function listReply(query: ListMediaLogQuery, request: ListingRequest, { page, total }: ListingResult, cursorAt: (edge: string) => string): MediaLogList {
  const log = page.values;
  return {
    filter: echoFilter(query),
    log,
    pagination: {
      count: log.length,
      limit: request.page.limit,
      page: request.page.page,
      total: total.count,
      next: page.edge === undefined ? null : cursorAt(page.edge),
      'total-exact': total.exact,
    },
    sort: { field: 'send', order: request.ascending ? 'asc' : 'desc' },
  };
}
