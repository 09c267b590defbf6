import type { ScheduledFunctionDefinition } from '../shared/deployment/function-definitions';
import { USER_PARTITIONS } from '../shared/deployment/users-table-access';

/** The avatar reconciler: deletes avatar objects that no record points at. */
export const reconcileAvatarObjectsFunction = {
  name: 'reconcileAvatarObjects',
  handler: 'functions/avatars/reconcile-avatar-objects.ts',
  description: 'the avatar reconciler: deletes avatar objects that no record points at',
  // Such objects only come from a crash between an upload's or a deletion's two writes: rare and
  // small. Daily bounds how long the image of a deleted avatar stays fetchable after such a crash.
  schedule: 'rate(1 day)',
  // Lists the avatar prefix, deletes objects under it, and reads the object key of avatar records by key.
  grants: { avatars: ['ListBucket', 'DeleteObject'], users: [{ actions: ['BatchGetItem'], partitions: USER_PARTITIONS, attributes: ['pk', 'sk', 'objectKey'] }] },
} as const satisfies ScheduledFunctionDefinition;
