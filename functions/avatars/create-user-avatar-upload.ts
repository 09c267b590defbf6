import { bearerRoute } from '../auth/bearer-route';
import { idempotent } from '../shared/idempotency/idempotent-route';
import { getDocumentClient } from '../shared/aws/clients';
import { tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { managedAvatars } from './avatar-access';
import { avatarConfig } from './avatar-config';
import { AvatarRepository } from './avatar-repository';
import { issueUploadForm } from './upload-form-issuing';
import { createUserAvatarUploadRoute } from './upload-form-routes';

/** The avatar owners, to check that the caller manages the user the form is for. */
const owners = /* @__PURE__ */ lazy(() => new AvatarRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser));

/** POST /user/{user-id}/avatar/uploads: a presigned form to post an image file for a user the caller manages (404 otherwise). */
export const handler = bearerRoute(createUserAvatarUploadRoute, idempotent(createUserAvatarUploadRoute, async ({ caller, path, body }) => {
  const { owner } = await managedAvatars(owners(), caller, path['user-id']);
  return { statusCode: 201, body: await issueUploadForm(owner.id, body['content-type']) };
}), { configuration: [avatarConfig] });
