import type { StoredCaller, UserTarget } from '../../shared/access/roles';
import { getS3Client } from '../../shared/aws/clients';
import { avatarBucketName } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { avatarConfig } from '../avatar-config';
import { managedAvatars } from '../avatar-access';
import { avatarRepository } from '../avatar-context';
import type { AvatarUploadFormRequest } from '../schemas';
import { UploadForms, type UploadForm } from './upload-forms';

/** The upload forms of the avatar bucket, signed with the function's own credentials. */
const uploadForms = /* @__PURE__ */ lazy(() => new UploadForms(getS3Client(), avatarBucketName()));

/** An upload form for `target` (the caller, or a user it manages: 404 otherwise). */
export async function createUploadForm(caller: StoredCaller, target: UserTarget, request: AvatarUploadFormRequest): Promise<UploadForm> {
  const userId = target === 'current' ? caller.userId : (await managedAvatars(avatarRepository(), caller, target)).owner.id;
  return uploadForms().create(userId, request['content-type'], avatarConfig().fetch.maxBytes);
}
