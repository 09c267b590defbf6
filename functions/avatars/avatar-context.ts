import { avatarBucketName, tableName } from '../shared/config/data-config';
import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { lazy } from '../shared/lazy';
import { UserPartitionReader } from '../shared/tables/user-partition';
import { usersTable } from '../shared/tables/users-table';
import { avatarConfig } from './avatar-config';
import { AvatarRepository } from './avatar-repository';
import { AvatarService, type AvatarImageSource } from './avatar-service';
import { AvatarStorage } from './avatar-storage';

/**
 * Process-wide construction of the avatar code (built on first use, reused warm). The image
 * pipeline is not imported here: the delete route has no use for it, and its bundle stays small.
 */

/** The process-wide avatar repository, on the shared client. */
export const avatarRepository = /* @__PURE__ */ lazy(
  () => new AvatarRepository(getDocumentClient(), tableName(usersTable), new UserPartitionReader(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser)),
);

/** The process-wide avatar storage, on the shared client. */
export const avatarStorage = /* @__PURE__ */ lazy(() => new AvatarStorage(getS3Client(), avatarBucketName()));

/** An avatar service on the process-wide repositories; uploads need an image source. */
export function createAvatarService(images?: AvatarImageSource): AvatarService {
  return new AvatarService({ avatars: avatarRepository(), storage: avatarStorage(), maxAvatars: avatarConfig().maxPerUser, images });
}

/** The process-wide avatar service of the routes that decode no image: deletions and upload forms. */
export const avatarRemovalService = /* @__PURE__ */ lazy(() => createAvatarService());
