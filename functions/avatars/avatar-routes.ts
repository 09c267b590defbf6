import { USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import type { RouteOperation } from '../shared/http/route-definition';
import { UserPathSchema } from '../shared/validation/user-id';
import { AVATAR_RECORD_WRITES, PROFILE_AVATAR_UPDATE } from './avatar-grants';
import { AvatarUploadSchema } from './request-schemas';

/**
 * The avatar uploads (from an address or an uploaded file) for the caller or a user it manages;
 * the upload forms and the deletion are in their own modules, so that each function builds only
 * its own input schema (their documentation: route-docs.ts).
 */

/**
 * What an upload touches: its user's partition, the avatar transaction, the fence that settles an
 * unknown outcome (the same profile update, alone), and the image objects it stores or discards.
 */
const UPLOAD_GRANTS = {
  users: [USER_PARTITION_READS, AVATAR_RECORD_WRITES, PROFILE_AVATAR_UPDATE],
  avatars: ['PutObject', 'DeleteObject'],
  // An uploaded file is read once and deleted.
  uploads: ['GetObject', 'DeleteObject'],
} as const;

/** What both avatar uploads accept. */
const AVATAR_UPLOAD_CONTRACT = {
  body: AvatarUploadSchema,
  maxBodyBytes: 16 * 1024,
} as const;

/** POST /user/current/avatar. */
export const uploadCurrentAvatarRoute = {
  name: 'uploadCurrentAvatar',
  method: 'POST',
  path: '/user/current/avatar',
  handler: 'functions/avatars/upload-current-avatar.ts',
  auth: 'bearer',
  grants: UPLOAD_GRANTS,
  image: true,
  idempotencyKey: true,
  contract: AVATAR_UPLOAD_CONTRACT,
} as const satisfies RouteOperation;

/** POST /user/{user-id}/avatar. */
export const uploadUserAvatarRoute = {
  name: 'uploadUserAvatar',
  method: 'POST',
  path: '/user/{user-id}/avatar',
  handler: 'functions/avatars/upload-user-avatar.ts',
  auth: 'bearer',
  grants: UPLOAD_GRANTS,
  image: true,
  idempotencyKey: true,
  contract: {
    ...AVATAR_UPLOAD_CONTRACT,
    pathParameters: UserPathSchema,
  },
} as const satisfies RouteOperation;
