import { bearerRoute } from '../auth/bearer-route';
import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { avatarBucketName, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { avatarConfig } from './avatar-config';
import { AvatarRepository } from './avatar-repository';
import { AvatarRemoval } from './avatar-removal';
import { AvatarStorage } from './avatar-storage';
import { deleteCurrentAvatarRoute } from './delete-route';

/** Avatar deletions: neither the upload path nor the image pipeline, which a deletion has no use for (its bundle stays small). */
const removals = /* @__PURE__ */ lazy(
  () =>
    new AvatarRemoval({
      avatars: new AvatarRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser),
      storage: new AvatarStorage(getS3Client(), avatarBucketName()),
    }),
);

/** DELETE /user/current/avatar/{avatar-id}: delete one of the caller's avatars. */
export const handler = bearerRoute(deleteCurrentAvatarRoute, async ({ caller, path }) => {
  await removals().remove(caller, path['avatar-id']);
  return { statusCode: 204 };
}, { configuration: [avatarConfig] });
