import { CALLER_PROFILE_READ, USER_DIRECTORY_READS } from '../../shared/deployment/users-table-access';
import type { RouteOperation } from '../../shared/http/route-definition';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, type MediaLogPartitionKind } from '../../shared/tables/media-log-table';
import { COUNTER_KEY_PREFIX, ENTRY_KEY_PREFIX, FAMILY_MOVE_KEY_PREFIX, keysStartingWith } from '../model/keys';
import { ListMediaLogQuerySchema } from './list-schemas';

/** GET /media/log (its documentation: route-docs.ts). */
export const listMediaLogRoute = {
  name: 'listMediaLog',
  method: 'GET',
  path: '/media/log',
  handler: 'functions/media-log/listing/list-media-log.ts',
  auth: 'bearer',
  grants: {
    // Entries by key for a page (and the request filter's one); their keys from the listing indexes (a partial bucket counted entry by entry too).
    mediaLog: [
      { actions: ['BatchGetItem'], partitions: [keysStartingWith(ENTRY_KEY_PREFIX)] },
      // A family's move marker: the users whose entries its listing leaves out while they are re-keyed.
      { actions: ['GetItem'], partitions: [keysStartingWith(FAMILY_MOVE_KEY_PREFIX)] },
      { actions: ['Query'], indexes: (Object.keys(MEDIA_LOG_ATTRIBUTES.partition) as MediaLogPartitionKind[]).map(mediaLogIndexName) },
    ],
    // Counter buckets, a range of one counter partition per Query.
    mediaLogCounts: [{ actions: ['Query'], partitions: [keysStartingWith(COUNTER_KEY_PREFIX)] }],
    // The caller's profile; a family's members and the root users (the caller's scope) by id.
    users: [CALLER_PROFILE_READ, USER_DIRECTORY_READS],
  },
  paginated: true,
  contract: {
    query: ListMediaLogQuerySchema,
  },
} as const satisfies RouteOperation;
