import { bearerRoute } from '../auth/bearer-route';
import { idempotent } from '../shared/idempotency/idempotent-route';
import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { avatarBucketName, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { managedAvatars } from './avatar-access';
import { avatarConfig } from './avatar-config';
import { AvatarRepository } from './avatar-repository';
import { createUserAvatarUploadRoute } from './upload-form-routes';
import { UploadForms } from './uploads/upload-forms';

/** The upload forms of the avatar bucket, signed with the function's own credentials. */
const forms = /* @__PURE__ */ lazy(() => new UploadForms(getS3Client(), avatarBucketName()));

/** The avatar owners, to check that the caller manages the user the form is for. */
const owners = /* @__PURE__ */ lazy(() => new AvatarRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser));

/** POST /user/{user-id}/avatar/uploads: a presigned form to post an image file for a user the caller manages (404 otherwise). */
export const handler = bearerRoute(createUserAvatarUploadRoute, idempotent(createUserAvatarUploadRoute, async ({ caller, path, body }) => {
  const { owner } = await managedAvatars(owners(), caller, path['user-id']);
  const form = await forms().create(owner.id, body['content-type'], avatarConfig().fetch.maxBytes);
  return { statusCode: 201, body: form };
}), { configuration: [avatarConfig] });
