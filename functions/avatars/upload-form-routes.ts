import { CALLER_PROFILE_READ } from '../shared/deployment/users-table-access';
import type { RouteOperation } from '../shared/http/route-definition';
import { UPLOAD_FORM_COUNT } from './avatar-grants';
import { avatarBucket } from '../shared/storage/avatar-bucket';
import { UserPathSchema } from '../shared/validation/user-id';
import * as z from '../shared/validation/zod';

/** The upload forms: a presigned form to post an image file for the caller or a user it manages (their documentation: route-docs.ts). */

/** Body of an upload form request: the media type of the file the browser will post (`File.type`). */
export const AvatarUploadFormRequestSchema = z.strictObject({
  'content-type': z.enum(avatarBucket.uploadContentTypes, { error: `Must be one of ${avatarBucket.uploadContentTypes.join(', ')}.` }),
});

/** What both upload form routes accept. */
const UPLOAD_FORM_CONTRACT = {
  body: AvatarUploadFormRequestSchema,
  maxBodyBytes: 1024,
} as const;

/**
 * An upload form signs with the right to put objects under the upload prefix (S3 authorizes the
 * browser's post with the function's credentials); the caller's form reads only the caller's
 * profile, a managed user's form that user's profile too (to check it is managed); both count the
 * form on the profile of the user it is for.
 */
const UPLOAD_FORM_SIGNING = ['PutObject'] as const;

/** POST /user/current/avatar/uploads. */
export const createCurrentAvatarUploadRoute = {
  name: 'createCurrentAvatarUpload',
  method: 'POST',
  path: '/user/current/avatar/uploads',
  handler: 'functions/avatars/create-current-avatar-upload.ts',
  auth: 'bearer',
  grants: { users: [CALLER_PROFILE_READ, UPLOAD_FORM_COUNT], uploads: UPLOAD_FORM_SIGNING },
  idempotencyKey: true,
  contract: UPLOAD_FORM_CONTRACT,
} as const satisfies RouteOperation;

/** POST /user/{user-id}/avatar/uploads. */
export const createUserAvatarUploadRoute = {
  name: 'createUserAvatarUpload',
  method: 'POST',
  path: '/user/{user-id}/avatar/uploads',
  handler: 'functions/avatars/create-user-avatar-upload.ts',
  auth: 'bearer',
  grants: { users: [CALLER_PROFILE_READ, UPLOAD_FORM_COUNT], uploads: UPLOAD_FORM_SIGNING },
  idempotencyKey: true,
  contract: {
    ...UPLOAD_FORM_CONTRACT,
    pathParameters: UserPathSchema,
  },
} as const satisfies RouteOperation;
