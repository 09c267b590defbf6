import * as z from '../../shared/validation/zod';
import { entryMatches } from '../../media-log/listing/entry-filter';
import type { StatusFilter } from '../../media-log/model/counters';
import { ListMediaLogQuerySchema } from '../../media-log/listing/list-schemas';
import type { MemberScope } from '../../media-log/listing/listing-scope';
import { STATUS_FIELDS } from '../../media-log/model/entry-fields';
import type { MediaLogEntry } from '../../media-log/model/schemas';

/**
 * The filter of a live subscription: the filter of GET /media/log, validated by the listing's own
 * query schema (its statuses, `user-id`, `url`, `request` and `send` range; no sort, no pagination),
 * so a frontend subscribes with the very filter it lists with. Given in a JSON message, ids may be
 * numbers: they are read as the query's digits.
 */

/** The listing's query without what only a page needs. */
const ListingFilterSchema = z.omit(ListMediaLogQuerySchema, { sort: true, pagination: true });

/** A JSON filter as the query decoder would deliver it: `user-id` numbers as their digits. */
function asQueryValues(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const ids = (value as Record<string, unknown>)['user-id'];
  const digits = (id: unknown) => (typeof id === 'number' ? String(id) : id);
  if (ids === undefined) return value;
  return { ...value, 'user-id': Array.isArray(ids) ? ids.map(digits) : digits(ids) };
}

/** A subscription's filter as a client sends it. */
export const LiveFilterSchema = z.pipe(z.transform(asQueryValues), ListingFilterSchema);
/** A validated, normalized filter: what the registry keeps. */
export type LiveFilter = z.output<typeof ListingFilterSchema>;

/** The listing's conditions on an entry: its statuses, its url, and whose it is. */
export interface FilterParts {
  readonly statuses?: StatusFilter;
  readonly url?: string;
  /** The users whose entries match (a user filter, or a caller's family); all when undefined. */
  readonly userIds?: readonly number[];
  /** Users whose entries never match (root users, for an admin). */
  readonly excludeUserIds?: readonly number[];
}

/** What an entry must satisfy to match a subscription: the listing's filter parts, and the id and send range. */
export interface SubscriptionMatch {
  readonly parts: FilterParts;
  readonly request?: string;
  readonly from?: string;
  readonly to?: string;
}

/** The match of a filter within a scope (the scope already narrowed to the filter's `user-id`). */
export function subscriptionMatch(filter: LiveFilter, scope: MemberScope): SubscriptionMatch {
  const statuses = Object.fromEntries(STATUS_FIELDS.filter((field) => filter[field] !== undefined).map((field) => [field, filter[field]]));
  return {
    parts: {
      statuses,
      ...(scope.kind === 'users' ? { userIds: scope.ids } : scope.exclude.length > 0 ? { excludeUserIds: scope.exclude } : {}),
      ...(filter.url === undefined ? {} : { url: filter.url }),
    },
    ...(filter.request === undefined ? {} : { request: filter.request }),
    ...(filter.send?.from === undefined ? {} : { from: filter.send.from }),
    ...(filter.send?.to === undefined ? {} : { to: filter.send.to }),
  };
}

/**
 * Whether an entry matches: the listing's check of statuses, users and url, then the id and the
 * send range (both inclusive; normalized date-times compare as text, as the listing's keys do).
 */
export function matchesSubscription(entry: MediaLogEntry, match: SubscriptionMatch): boolean {
  return (
    entryMatches(entry, match.parts) &&
    (match.parts.userIds?.includes(entry['user-id']) ?? true) &&
    !(match.parts.excludeUserIds?.includes(entry['user-id']) ?? false) &&
    (match.request === undefined || entry.id === match.request) &&
    (match.from === undefined || entry.send >= match.from) &&
    (match.to === undefined || entry.send <= match.to)
  );
}
