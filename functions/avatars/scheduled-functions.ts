import type { ScheduledFunctionDefinition } from '../shared/deployment/function-definitions';

/** The avatar reconciler: deletes avatar objects that no record points at. */
export const reconcileAvatarObjectsFunction = {
  name: 'reconcileAvatarObjects',
  handler: 'functions/avatars/reconcile-avatar-objects.ts',
  description: 'the avatar reconciler: deletes avatar objects that no record points at',
  // Such objects only come from a crash between an upload's or a deletion's two writes: rare and
  // small. Daily bounds how long the image of a deleted avatar stays fetchable after such a crash.
  schedule: 'rate(1 day)',
  grants: { avatars: ['list', 'delete'], users: ['batchGet'] },
} as const satisfies ScheduledFunctionDefinition;
