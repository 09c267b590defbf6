import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { avatarBucketName, tableName } from '../shared/config/data-config';
import { toProblemError } from '../shared/http/problem-response';
import { lazy } from '../shared/lazy';
import { recordAvatarUpload, recordAvatarUploadFailure } from '../shared/observability/metrics';
import { usersTable } from '../shared/tables/users-table';
import { avatarConfig } from './avatar-config';
import { AvatarImages } from './avatar-images';
import { AvatarRepository } from './avatar-repository';
import { AvatarService, type AvatarUploadRequest } from './avatar-service';
import { AvatarStorage } from './avatar-storage';
import type { Avatar } from './schemas';
import { UploadedImages } from './uploads/uploaded-images';

/**
 * What the two avatar upload routes (the caller's own, a managed user's) run: the avatar service
 * with the image pipeline, built on the shared clients at first use.
 */
const uploadService = /* @__PURE__ */ lazy(() => {
  const { maxPerUser } = avatarConfig();
  return new AvatarService({
    avatars: new AvatarRepository(getDocumentClient(), tableName(usersTable), maxPerUser),
    storage: new AvatarStorage(getS3Client(), avatarBucketName()),
    images: new AvatarImages(new UploadedImages(getS3Client(), avatarBucketName())),
    maxAvatars: maxPerUser,
  });
});

/**
 * An upload, counted: AvatarUploads when the avatar is stored and enabled, AvatarUploadFailures
 * with the code of the problem the client gets when it fails.
 */
export async function uploadAvatar(caller: StoredCaller, target: UserTarget, request: AvatarUploadRequest): Promise<Avatar> {
  try {
    const avatar = await uploadService().upload(caller, target, request);
    recordAvatarUpload();
    return avatar;
  } catch (error) {
    recordAvatarUploadFailure(toProblemError(error).code);
    throw error;
  }
}
