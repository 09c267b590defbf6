import { bearerRoute } from '../auth/bearer-route';
import { idempotent } from '../shared/idempotency/idempotent-route';
import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { avatarBucketName, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { avatarConfig } from './avatar-config';
import { AvatarRepository } from './avatar-repository';
import { AvatarService } from './avatar-service';
import { AvatarStorage } from './avatar-storage';
import { deleteCurrentAvatarRoute } from './delete-route';

/** The avatar service without the image pipeline, which a deletion has no use for (its bundle stays small). */
const removals = /* @__PURE__ */ lazy(() => {
  const { maxPerUser } = avatarConfig();
  return new AvatarService({
    avatars: new AvatarRepository(getDocumentClient(), tableName(usersTable), maxPerUser),
    storage: new AvatarStorage(getS3Client(), avatarBucketName()),
    maxAvatars: maxPerUser,
  });
});

/** DELETE /user/current/avatar/{avatar-id}: delete one of the caller's avatars. */
export const handler = bearerRoute(deleteCurrentAvatarRoute, idempotent(deleteCurrentAvatarRoute, async ({ caller, path }) => {
  await removals().remove(caller, path['avatar-id']);
  return { statusCode: 204 };
}), { configuration: [avatarConfig] });
