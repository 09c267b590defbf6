import type { StreamConsumerDefinition } from '../../shared/deployment/function-definitions';
import { ENTRY_KEY_PREFIX, FAMILY_MOVE_KEY_PREFIX, keysStartingWith } from '../model/keys';
import { mediaLogIndexName } from '../../shared/tables/media-log-table';
import { USER_KEY_PREFIX } from '../../shared/tables/users-keys';

/**
 * The background re-key of families (DESIGN.md 7b, round five): a consumer of the users table's
 * stream that moves the media log entries of a user whose family changed (a sub user given another
 * parent, whichever path made the change: the CLI, the console) to the new family's partitions and
 * counters (family-rekey.ts). Until it is done, both families' listings leave that user's entries
 * out and say their totals are inexact.
 */
export const rekeyMovedUsersFunction = {
  name: 'rekeyMovedUsers',
  handler: 'functions/media-log/family/rekey-moved-users.ts',
  description: 'the media log families: re-keys the entries of a user moved to another family, in the background',
  table: 'Users',
  // The user partitions of the users table: profiles are the only items whose changes matter here.
  keyPrefixes: [USER_KEY_PREFIX],
  // Moves are rare and each may re-key many entries: a few users a batch, one after the other.
  batchSize: 10,
  maxBatchingWindowSeconds: 0,
  tumblingWindowSeconds: 900,
  // A user of about a million entries takes minutes (one small conditional write each, 8 at once);
  // a batch that runs out of time is delivered again, and the re-key goes on where it stopped
  // (an entry already in its family writes nothing).
  timeoutSeconds: 900,
  // Retried for a day (the stream keeps its records 24 hours); then the failure queue says which batch.
  maximumRecordAgeSeconds: 86_400,
  failureQueue: 'FamilyRekeyFailures',
  failureAdvice: "A moved user's media log entries were not all re-keyed, and both families' listings leave them out: fix the cause, then finish the move with `npm run --silent cli -- media-log rekey ID --from FAMILY` (the user, and the family it left).",
  grants: {
    mediaLog: [
      // The user's entries by its own partitions (keys only), each re-keyed by one conditional update.
      { actions: ['Query'], indexes: [mediaLogIndexName('user')] },
      { actions: ['UpdateItem'], partitions: [keysStartingWith(ENTRY_KEY_PREFIX)] },
      // The two families' move markers, set before the re-key and cleared once it is done.
      { actions: ['UpdateItem'], partitions: [keysStartingWith(FAMILY_MOVE_KEY_PREFIX)] },
    ],
  },
} as const satisfies StreamConsumerDefinition;
