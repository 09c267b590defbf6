import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { avatarBucketName } from '../shared/config/data-config';
import { getS3Client } from '../shared/aws/clients';
import { ProblemError } from '../shared/errors';
import { toProblemError } from '../shared/http/problem-response';
import { lazy } from '../shared/lazy';
import { recordAvatarFetch, recordAvatarUpload, recordAvatarUploadFailure } from '../shared/observability/metrics';
import { avatarConfig } from './avatar-config';
import { createAvatarService } from './avatar-context';
import type { AvatarImageSource, AvatarUploadRequest } from './avatar-service';
import { fetchImage } from './fetch';
import { cropAvatar, type AvatarCrop, type CroppedAvatar } from './image';
import { isUploadSource } from './uploads/upload-name';
import { UploadedImages } from './uploads/uploaded-images';
import type { Avatar } from './schemas';

/** The files users posted with an upload form, on the shared client. */
const uploadedImages = /* @__PURE__ */ lazy(() => new UploadedImages(getS3Client(), avatarBucketName()));

/** Crops the image at an address, fetched SSRF-safely (its size and fetch time counted). */
async function fromAddress(url: string, crop: AvatarCrop): Promise<CroppedAvatar> {
  const started = performance.now();
  const { fetch, maxPixels } = avatarConfig();
  const fetched = await fetchImage(url, fetch);
  recordAvatarFetch(fetched.bytes.byteLength, performance.now() - started);
  return cropAvatar(fetched.bytes, crop, { maxPixels });
}

/**
 * Crops a file the user uploaded. A file the service refuses (too large, not an image, a crop
 * outside it) is deleted at once: posting it again cannot help. One that failed for another reason
 * (S3 did not answer) is kept, so the same request can be retried.
 */
async function fromUpload(source: string, crop: AvatarCrop, ownerId: number): Promise<CroppedAvatar> {
  const { fetch, maxPixels } = avatarConfig();
  try {
    const bytes = await uploadedImages().read(ownerId, source, fetch.maxBytes);
    return await cropAvatar(bytes, crop, { maxPixels });
  } catch (error) {
    if (error instanceof ProblemError && error.status < 500) await uploadedImages().discard(ownerId, source);
    throw error;
  }
}

/** The image sources of the upload routes: an upload's `source`, or else an http(s) address. */
export const avatarImages: AvatarImageSource = {
  produce: (source, crop, ownerId) => (isUploadSource(source) ? fromUpload(source, crop, ownerId) : fromAddress(source, crop)),
  used: async (source, ownerId) => {
    if (isUploadSource(source)) await uploadedImages().discard(ownerId, source);
  },
};

/** The process-wide avatar service of the upload routes, which ship the image library. */
export const avatarUploadService = /* @__PURE__ */ lazy(() => createAvatarService(avatarImages));

/**
 * An upload of the upload routes, counted: AvatarUploads when the avatar is stored and enabled,
 * AvatarUploadFailures with the code of the problem the client gets when it fails.
 */
export async function uploadAvatar(caller: StoredCaller, target: UserTarget, request: AvatarUploadRequest): Promise<Avatar> {
  try {
    const avatar = await avatarUploadService().upload(caller, target, request);
    recordAvatarUpload();
    return avatar;
  } catch (error) {
    recordAvatarUploadFailure(toProblemError(error).code);
    throw error;
  }
}
