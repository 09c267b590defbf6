import { USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import type { RouteOperation } from '../shared/http/route-definition';
import * as z from '../shared/validation/zod';
import { AVATAR_RECORD_WRITES, PROFILE_AVATAR_UPDATE } from './avatar-grants';

/**
 * Path parameters of `/user/current/avatar/{avatar-id}`: an id in UUID form, as the User's
 * `avatars.items[].id` gives it. A value that is not a UUID is a 400 naming `avatar-id` (it cannot
 * name any avatar, so saying so reveals nothing); a UUID that names no avatar of the caller is a 404.
 */
export const AvatarPathSchema = z.strictObject({ 'avatar-id': z.string().check(z.uuid('Must be an avatar id in UUID form.')) });

/** DELETE /user/current/avatar/{avatar-id} (its documentation: route-docs.ts). */
export const deleteCurrentAvatarRoute = {
  name: 'deleteCurrentAvatar',
  method: 'DELETE',
  path: '/user/current/avatar/{avatar-id}',
  handler: 'functions/avatars/delete-current-avatar.ts',
  auth: 'bearer',
  // A deletion only deletes records, and moves the profile inside the same transaction.
  grants: {
    users: [USER_PARTITION_READS, { ...AVATAR_RECORD_WRITES, actions: ['DeleteItem'] }, { ...PROFILE_AVATAR_UPDATE, inTransaction: true }],
    avatars: ['DeleteObject'],
  },
  idempotencyKey: true,
  contract: {
    pathParameters: AvatarPathSchema,
  },
} as const satisfies RouteOperation;
