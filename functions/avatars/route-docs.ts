import { MANAGED_USERS_RULE } from '../shared/access/access-policy';
import type { RouteDocs } from '../shared/http/route-definition';
import { avatarBucket } from '../shared/storage/avatar-bucket';
import { AVATAR_CROP_DESCRIPTION } from './image/crop-spec';
import { AvatarUploadFormSchema, AvatarUploadResultSchema } from './schemas';

/**
 * What the API description says of the avatar routes beyond what they accept: only the OpenAPI
 * document reads it (functions/avatars/routes.ts pairs it with the operations), so the avatar
 * functions carry neither these texts nor the answer schemas.
 */

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

/** What both avatar uploads answer. */
const AVATAR_UPLOAD_ANSWERS = {
  tag: 'Avatars',
  success: { status: 201, description: 'The new avatar, enabled.', schema: AvatarUploadResultSchema },
  errors: [400, 404, 409, 413, 415, 422, 502, 504],
} as const;

const UPLOAD_FORM_DESCRIPTION = [
  'Answers a presigned S3 POST form for one image file: the browser posts the file straight to storage, so it never passes through the API. Two steps:',
  '',
  "1. Post a `multipart/form-data` form to `url` with every entry of `fields`, then the file as the last field, named `file` (`FormData`: append the fields, then `append('file', file)`). Storage answers 204. " +
    `The form is accepted until \`expires\` (${avatarBucket.uploadFormSeconds / 60} minutes), for one file of the declared \`content-type\`, of 1 byte up to the avatar byte cap (10 MB by default); storage refuses anything else with a 403 or 400 of its own.`,
  '2. Call the avatar upload of the same user with `avatar` = `source` and a `crop`, as for an image address.',
  '',
  'The file is the user\'s for a day: used once, then deleted; unused, removed by a lifecycle rule. The service checks the file again when it reads it (size, image type, pixels), whatever storage enforced.',
  '',
  `What a user's files can cost is bounded: a user is given at most ${avatarBucket.uploadFormsPerDay} forms a day (UTC), whoever asks for them (the user, or a manager for that user), and each form stores at most one file. Beyond that the answer is a 429 \`upload_forms_exhausted\` whose \`Retry-After\` is the number of seconds until midnight UTC.`,
].join('\n');

/** What both upload form routes answer. */
const UPLOAD_FORM_ANSWERS = {
  tag: 'Avatars',
  success: { status: 201, description: 'A form for one file, and the source to pass as `avatar` once it is posted.', schema: AvatarUploadFormSchema },
  errors: [400, 404, 413, 415, 429],
} as const;

/** The documentation of each avatar route, by route name. */
export const AVATAR_ROUTE_DOCS = {
  uploadCurrentAvatar: {
    ...AVATAR_UPLOAD_ANSWERS,
    summary: 'Upload an avatar for the caller',
    description: AVATAR_UPLOAD_DESCRIPTION,
  },
  uploadUserAvatar: {
    ...AVATAR_UPLOAD_ANSWERS,
    summary: 'Upload an avatar for a user the caller manages',
    description: `${MANAGED_USERS_RULE} Nothing is fetched for such a user.\n\n${AVATAR_UPLOAD_DESCRIPTION}`,
  },
  createCurrentAvatarUpload: {
    ...UPLOAD_FORM_ANSWERS,
    summary: "Get a form to upload a file for the caller's avatar",
    description: UPLOAD_FORM_DESCRIPTION,
  },
  createUserAvatarUpload: {
    ...UPLOAD_FORM_ANSWERS,
    summary: 'Get a form to upload a file for the avatar of a user the caller manages',
    description: `${MANAGED_USERS_RULE} The source is bound to that user: only its avatar upload accepts it.\n\n${UPLOAD_FORM_DESCRIPTION}`,
  },
  deleteCurrentAvatar: {
    summary: "Delete one of the caller's avatars",
    description:
      "`avatar-id` is an id from the caller's User (`avatars.items[].id`). The avatar's record and image are deleted; " +
      'if it was the enabled avatar, the newest remaining one is enabled (none when it was the last). ' +
      "A value that is not a UUID is a 400; an id that names no avatar of the caller (another user's included) is a 404.",
    tag: 'Avatars',
    success: { status: 204, description: 'Deleted; no body.' },
    errors: [400, 404, 409],
  },
} as const satisfies Readonly<Record<string, RouteDocs>>;
