import { CALLER_PROFILE_READ, USER_DIRECTORY_READS } from '../shared/deployment/users-table-access';
import type { RouteDefinition } from '../shared/http/route-definition';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, type MediaLogPartitionKind } from '../shared/tables/media-log-table';
import { ListMediaLogQuerySchema, MediaLogListSchema } from './list-schemas';

/** GET /media/log. */
export const listMediaLogRoute = {
  name: 'listMediaLog',
  method: 'GET',
  path: '/media/log',
  handler: 'functions/media-log/list-media-log.ts',
  auth: 'bearer',
  grants: {
    // Entries by id (the request filter) and by page from the listing indexes (a partial bucket counted entry by entry too).
    mediaLog: [
      { actions: ['GetItem'], partitions: ['ENTRY#*'] },
      { actions: ['Query'], indexes: (Object.keys(MEDIA_LOG_ATTRIBUTES.partition) as MediaLogPartitionKind[]).map(mediaLogIndexName) },
    ],
    // Counter buckets, a range of one counter partition per Query.
    mediaLogCounts: [{ actions: ['Query'], partitions: ['COUNT#*'] }],
    // The caller's profile; a family's members and the root users (the caller's scope) by id.
    users: [CALLER_PROFILE_READ, USER_DIRECTORY_READS],
  },
  paginated: true,
  contract: {
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
    query: ListMediaLogQuerySchema,
    success: { status: 200, description: 'A page of media log entries.', schema: MediaLogListSchema },
    errors: [400],
  },
} as const satisfies RouteDefinition;
