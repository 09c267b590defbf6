import { bearerRoute } from '../auth/bearer-route';
import { idempotent } from '../shared/idempotency/idempotent-route';
import { getS3Client } from '../shared/aws/clients';
import { avatarBucketName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { avatarConfig } from './avatar-config';
import { createCurrentAvatarUploadRoute } from './upload-form-routes';
import { UploadForms } from './uploads/upload-forms';

/** The upload forms of the avatar bucket, signed with the function's own credentials. */
const forms = /* @__PURE__ */ lazy(() => new UploadForms(getS3Client(), avatarBucketName()));

/** POST /user/current/avatar/uploads: a presigned form for the caller to post an image file straight to storage. */
export const handler = bearerRoute(createCurrentAvatarUploadRoute, idempotent(createCurrentAvatarUploadRoute, async ({ caller, body }) => {
  const form = await forms().create(caller.userId, body['content-type'], avatarConfig().fetch.maxBytes);
  return { statusCode: 201, body: form };
}), { configuration: [avatarConfig] });
