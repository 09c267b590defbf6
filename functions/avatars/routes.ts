import { MANAGED_USERS_RULE } from '../shared/access/access-policy';
import type { TableAccess } from '../shared/deployment/data-grants';
import { CALLER_PROFILE_READ, USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import type { RouteDefinition } from '../shared/http/route-definition';
import { avatarBucket } from '../shared/storage/avatar-bucket';
import { AVATAR_CROP_DESCRIPTION } from './image/crop-spec';
import { UserPathSchema } from '../shared/validation/user-id';
import { AvatarPathSchema, AvatarUploadFormRequestSchema, AvatarUploadFormSchema, AvatarUploadResultSchema, AvatarUploadSchema } from './schemas';

/** The avatar routes: uploads (from an address or an uploaded file) for the caller or a user it manages, upload forms, and the caller's deletions. */

const AVATAR_UPLOAD_DESCRIPTION = [
  'The image at `avatar` (an http or https address of at most 2048 characters) is fetched, cropped, stored and enabled: the new avatar becomes the only enabled one of the user, and its `url` answers a plain GET with the WebP image, which never changes (cacheable for a year).',
  "`avatar` may instead be the `source` of a file the browser posted with an upload form (`POST …/avatar/uploads`): the file is read from storage, not fetched, and deleted once the avatar is stored or the file refused. A source that names no usable file of this user (never posted, already used, expired, another user's) is a 422 `upload_not_found`.",
  'The fetch reaches public internet addresses on ports 80 and 443 only (an address that leads elsewhere, redirects included, is a 400 on `avatar`), follows at most 3 redirects and takes JPEG, PNG, WebP or GIF images of at most 10 MB (413 beyond) and 40 megapixels (422 beyond), by default.',
  '`crop.left`, `crop.top` (0-100000) and `crop.size` (1-100000) are required; `crop.rotate` (a multiple of 90 from -360 to 360) and `crop.flip` are optional.',
  '',
  AVATAR_CROP_DESCRIPTION,
  '',
  "Other errors: 422 for a file that is not a usable image, and for an address the caller must fix: `source_unresolvable` when its host name does not exist or has no address, `source_refused` when its host refuses the connection; 502 or 504 when the image source answers with an error, breaks off, or does not answer in time; 409 when other changes of the same user's avatars kept getting in the way (retry).",
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
const UPLOAD_GRANTS = {
  users: [USER_PARTITION_READS, AVATAR_RECORD_WRITES, PROFILE_AVATAR_UPDATE],
  avatars: ['PutObject', 'DeleteObject'],
  // An uploaded file is read once and deleted.
  uploads: ['GetObject', 'DeleteObject'],
} as const;

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

const UPLOAD_FORM_DESCRIPTION = [
  'Answers a presigned S3 POST form for one image file: the browser posts the file straight to storage, so it never passes through the API. Two steps:',
  '',
  "1. Post a `multipart/form-data` form to `url` with every entry of `fields`, then the file as the last field, named `file` (`FormData`: append the fields, then `append('file', file)`). Storage answers 204. " +
    `The form is accepted until \`expires\` (${avatarBucket.uploadFormSeconds / 60} minutes), for one file of the declared \`content-type\`, of 1 byte up to the avatar byte cap (10 MB by default); storage refuses anything else with a 403 or 400 of its own.`,
  '2. Call the avatar upload of the same user with `avatar` = `source` and a `crop`, as for an image address.',
  '',
  'The file is the user\'s for a day: used once, then deleted; unused, removed by a lifecycle rule. The service checks the file again when it reads it (size, image type, pixels), whatever storage enforced.',
].join('\n');

/** What both upload form routes accept and answer. */
const UPLOAD_FORM_CONTRACT = {
  tag: 'Avatars',
  body: AvatarUploadFormRequestSchema,
  maxBodyBytes: 1024,
  success: { status: 201, description: 'A form for one file, and the source to pass as `avatar` once it is posted.', schema: AvatarUploadFormSchema },
  errors: [400, 404, 413, 415],
} as const;

/**
 * An upload form signs with the right to put objects under the upload prefix (S3 authorizes the
 * browser's post with the function's credentials); the caller's form reads only the caller's
 * profile, a managed user's form that user's partition too.
 */
const UPLOAD_FORM_SIGNING = ['PutObject'] as const;

/** POST /user/current/avatar/uploads. */
export const createCurrentAvatarUploadRoute = {
  name: 'createCurrentAvatarUpload',
  method: 'POST',
  path: '/user/current/avatar/uploads',
  handler: 'functions/avatars/create-current-avatar-upload.ts',
  auth: 'bearer',
  grants: { users: [CALLER_PROFILE_READ], uploads: UPLOAD_FORM_SIGNING },
  contract: { ...UPLOAD_FORM_CONTRACT, summary: "Get a form to upload a file for the caller's avatar", description: UPLOAD_FORM_DESCRIPTION },
} as const satisfies RouteDefinition;

/** POST /user/{user-id}/avatar/uploads. */
export const createUserAvatarUploadRoute = {
  name: 'createUserAvatarUpload',
  method: 'POST',
  path: '/user/{user-id}/avatar/uploads',
  handler: 'functions/avatars/create-user-avatar-upload.ts',
  auth: 'bearer',
  grants: { users: [USER_PARTITION_READS], uploads: UPLOAD_FORM_SIGNING },
  contract: {
    ...UPLOAD_FORM_CONTRACT,
    summary: "Get a form to upload a file for the avatar of a user the caller manages",
    description: `${MANAGED_USERS_RULE} The source is bound to that user: only its avatar upload accepts it.\n\n${UPLOAD_FORM_DESCRIPTION}`,
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
export const avatarRoutes = [
  uploadCurrentAvatarRoute,
  uploadUserAvatarRoute,
  createCurrentAvatarUploadRoute,
  createUserAvatarUploadRoute,
  deleteCurrentAvatarRoute,
] as const;
