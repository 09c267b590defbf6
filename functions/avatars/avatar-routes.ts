import type { TableAccess } from '../shared/deployment/data-grants';
import { CALLER_PROFILE_READ, USER_PARTITIONS, USER_PARTITION_READS } from '../shared/deployment/users-table-access';
import type { RouteOperation } from '../shared/http/route-definition';
import { UserPathSchema } from '../shared/validation/user-id';
import { AvatarPathSchema, AvatarUploadFormRequestSchema, AvatarUploadSchema } from './request-schemas';

/**
 * The avatar routes: uploads (from an address or an uploaded file) for the caller or a user it
 * manages, upload forms, and the caller's deletions (their documentation: route-docs.ts).
 */

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
  contract: {
    ...AVATAR_UPLOAD_CONTRACT,
    pathParameters: UserPathSchema,
  },
} as const satisfies RouteOperation;

/** What both upload form routes accept. */
const UPLOAD_FORM_CONTRACT = {
  body: AvatarUploadFormRequestSchema,
  maxBodyBytes: 1024,
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
  contract: UPLOAD_FORM_CONTRACT,
} as const satisfies RouteOperation;

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
    pathParameters: UserPathSchema,
  },
} as const satisfies RouteOperation;

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
    pathParameters: AvatarPathSchema,
  },
} as const satisfies RouteOperation;
