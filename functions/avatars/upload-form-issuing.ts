import { getDocumentClient, getS3Client } from '../shared/aws/clients';
import { avatarBucketName, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { avatarBucket } from '../shared/storage/avatar-bucket';
import { usersTable } from '../shared/tables/users-table';
import { avatarConfig } from './avatar-config';
import { UploadFormQuota } from './uploads/upload-form-quota';
import { UploadForms, type UploadForm } from './uploads/upload-forms';

/** What the two upload form routes (the caller's own, a managed user's) run, on the shared clients. */

/** The upload forms of the avatar bucket, signed with the function's own credentials. */
const forms = /* @__PURE__ */ lazy(() => new UploadForms(getS3Client(), avatarBucketName()));

/** The forms each user has been given today. */
const quota = /* @__PURE__ */ lazy(() => new UploadFormQuota(getDocumentClient(), tableName(usersTable), avatarBucket.uploadFormsPerDay));

/**
 * A form for user `ownerId` to post one file of `contentType`, of at most the avatar byte cap,
 * counted against that user's forms of the day.
 *
 * @throws ProblemError 429 `upload_forms_exhausted` when the user has had them all.
 */
export async function issueUploadForm(ownerId: number, contentType: (typeof avatarBucket.uploadContentTypes)[number]): Promise<UploadForm> {
  await quota().take(ownerId);
  return forms().create(ownerId, contentType, avatarConfig().fetch.maxBytes);
}
