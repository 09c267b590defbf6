import type { RouteDocs } from '../shared/http/route-definition';
import { MediaLogListSchema } from './model/schemas';

/**
 * What the API description says of GET /media/log beyond what it accepts: only the OpenAPI
 * document reads it (functions/media-log/routes.ts pairs it with the operation), so the listing
 * function carries neither this text nor the answer schema.
 */

/** The documentation of each media log route, by route name. */
export const MEDIA_LOG_ROUTE_DOCS = {
  listMediaLog: {
    summary: 'List the media request log',
    description:
      "Root and admin see every entry, a user its own and its sub users' entries, a sub user its own; a `user-id` outside the caller's scope matches nothing. " +
      'Filters (all optional, combined with AND; values of one array with OR): `status`, `status-ffscan`, `status-mediainfo`, `status-scan-report` ' +
      '(pending, processing, success, warning, error, skipped), `user-id`, `url` (exact), `request` (an entry id), `send[from]` and `send[to]` ' +
      '(date-times, inclusive, echoed as `filter.created`; in UTC they must fall within the years 0000-9999). Arrays repeat the key or separate values by commas: `status=error&status=warning` or `status=error,warning`. ' +
      'Sortable field, served by every index: send (default order desc); `sort[order]` is asc or desc. ' +
      'Pagination: `pagination[page]` >= 1 (default 1), `pagination[limit]` 1-100 (default 10); `total` is exact. ' +
      'For long walks follow `pagination.next`: pass it back as `pagination[cursor]` with the same filters. Invalid values are a 400 naming the parameter.',
    tag: 'Media log',
    success: { status: 200, description: 'A page of media log entries.', schema: MediaLogListSchema },
    errors: [400],
  },
} as const satisfies Readonly<Record<string, RouteDocs>>;
