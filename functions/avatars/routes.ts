import { MANAGED_USERS_RULE } from '../shared/access/access-policy';
import type { TableAccess } from '../shared/deployment/data-grants';
import { USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import type { RouteDefinition } from '../shared/http/route-definition';
import { AVATAR_CROP_DESCRIPTION } from './image/crop-spec';
import { UserPathSchema } from '../shared/validation/user-id';
import { AvatarPathSchema, AvatarUploadResultSchema, AvatarUploadSchema } from './schemas';

/** The avatar routes: uploads for the caller or a user it manages, and the caller's deletions. */

const AVATAR_UPLOAD_DESCRIPTION = [
  'The image at `avatar` (an http or https address of at most 2048 characters) is fetched, cropped, stored and enabled: the new avatar becomes the only enabled one of the user, and its `url` answers a plain GET with the WebP image, which never changes (cacheable for a year).',
  'The fetch reaches public internet addresses on ports 80 and 443 only (an address that leads elsewhere, redirects included, is a 400 on `avatar`), follows at most 3 redirects and takes JPEG, PNG, WebP or GIF images of at most 10 MB (413 beyond) and 40 megapixels (422 beyond), by default.',
  '`crop.left`, `crop.top` (0-100000) and `crop.size` (1-100000) are required; `crop.rotate` (a multiple of 90 from -360 to 360) and `crop.flip` are optional.',
  '',
  AVATAR_CROP_DESCRIPTION,
  '',
  "Other errors: 422 for a file that is not a usable image; 502 or 504 when the image source fails or does not answer in time; 409 when other changes of the same user's avatars kept getting in the way (retry).",
].join('\n');

/**
 * What the avatar transactions write (avatar-repository.ts): an avatar item (avatar-record.ts's
 * attributes) put or deleted, only inside the transaction that also moves the profile.
 */
const AVATAR_RECORD_WRITES = {
  actions: ['PutItem', 'DeleteItem'],
  partitions: USER_PARTITIONS,
  attributes: ['pk', 'sk', 'userId', 'avatarId', 'created', 'objectKey', 'provider'],
  inTransaction: true,
} as const satisfies TableAccess;

/** The profile's avatar fields and version, updated without reading anything back. */
const PROFILE_AVATAR_UPDATE = {
  actions: ['UpdateItem'],
  partitions: USER_PARTITIONS,
  attributes: ['pk', 'sk', 'currentAvatarId', 'updated', 'version'],
  returnValues: ['NONE'],
} as const satisfies TableAccess;

/**
 * What an upload touches: its user's partition, the avatar transaction, the fence that settles an
 * unknown outcome (the same profile update, alone), and the image objects it stores or discards.
 */
const UPLOAD_GRANTS = { users: [USER_PARTITION_READS, AVATAR_RECORD_WRITES, PROFILE_AVATAR_UPDATE], avatars: ['PutObject', 'DeleteObject'] } as const;

/** What both avatar uploads accept and answer. */
const AVATAR_UPLOAD_CONTRACT = {
  tag: 'Avatars',
  body: AvatarUploadSchema,
  maxBodyBytes: 16 * 1024,
  success: { status: 201, description: 'The new avatar, enabled.', schema: AvatarUploadResultSchema },
  errors: [400, 404, 409, 413, 415, 422, 502, 504],
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
  contract: {
    ...AVATAR_UPLOAD_CONTRACT,
    summary: 'Upload an avatar for the caller',
    description: AVATAR_UPLOAD_DESCRIPTION,
  },
} as const satisfies RouteDefinition;

/** POST /user/{user-id}/avatar. */
export const uploadUserAvatarRoute = {
  name: 'uploadUserAvatar',
  method: 'POST',
  path: '/user/{user-id}/avatar',
  handler: 'functions/avatars/upload-user-avatar.ts',
  auth: 'bearer',
  grants: UPLOAD_GRANTS,
  image: true,
  contract: {
    ...AVATAR_UPLOAD_CONTRACT,
    summary: 'Upload an avatar for a user the caller manages',
    description: `${MANAGED_USERS_RULE} Nothing is fetched for such a user.\n\n${AVATAR_UPLOAD_DESCRIPTION}`,
    pathParameters: UserPathSchema,
  },
} as const satisfies RouteDefinition;

/** DELETE /user/current/avatar/{avatar-id}. */
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
  contract: {
    summary: "Delete one of the caller's avatars",
    description:
      "`avatar-id` is an id from the caller's User (`avatars.items[].id`). The avatar's record and image are deleted; " +
      'if it was the enabled avatar, the newest remaining one is enabled (none when it was the last). ' +
      "A value that is not a UUID is a 400; an id that names no avatar of the caller (another user's included) is a 404.",
    tag: 'Avatars',
    pathParameters: AvatarPathSchema,
    success: { status: 204, description: 'Deleted; no body.' },
    errors: [400, 404, 409],
  },
} as const satisfies RouteDefinition;

/** The avatar routes, in the order the API description lists them. */
export const avatarRoutes = [uploadCurrentAvatarRoute, uploadUserAvatarRoute, deleteCurrentAvatarRoute] as const;
