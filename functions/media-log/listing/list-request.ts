import type { KeyRange } from '../../shared/listing/key-range';
import type { PageRequest } from '../../shared/listing/pagination';
import type { StatusFilter } from '../model/counters';
import { STATUS_FIELDS } from '../model/entry-fields';
import { instantAfter } from '../model/time-buckets';
import type { ListMediaLogQuery } from './list-schemas';
import type { ListingScope } from './listing-scope';

/**
 * A GET /media/log request as the listing reads it: the query and the caller resolved into the one
 * shape the planner, the reader and the reply builder all take.
 */
export interface ListingRequest {
  /** Whose entries the caller may see (and asked for). */
  readonly scope: ListingScope;
  readonly statuses: StatusFilter;
  readonly url?: string;
  /** The `request` filter: one entry by its id. */
  readonly id?: string;
  /** The send times asked for, `[send[from], send[to])`: the inclusive `send[to]` made exclusive here, once. */
  readonly range: KeyRange;
  readonly ascending: boolean;
  readonly page: PageRequest;
}

/** The status filters of a query, by field; an absent field is not filtered. */
export function statusFilterOf(query: ListMediaLogQuery): StatusFilter {
  return Object.fromEntries(STATUS_FIELDS.filter((field) => query[field] !== undefined).map((field) => [field, query[field]]));
}

/** The request a query of a caller whose scope is `scope` makes, for `page`. */
export function listingRequest(query: ListMediaLogQuery, scope: ListingScope, page: PageRequest): ListingRequest {
  const to = query.send?.to === undefined ? undefined : instantAfter(query.send.to);
  return {
    scope,
    statuses: statusFilterOf(query),
    ...(query.url === undefined ? {} : { url: query.url }),
    ...(query.request === undefined ? {} : { id: query.request }),
    range: { ...(query.send?.from === undefined ? {} : { from: query.send.from }), ...(to === undefined ? {} : { to }) },
    ascending: query.sort?.order === 'asc',
    page,
  };
}
