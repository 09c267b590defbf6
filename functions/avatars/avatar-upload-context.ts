import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { toProblemError } from '../shared/http/problem-response';
import { lazy } from '../shared/lazy';
import { recordAvatarFetch, recordAvatarUpload, recordAvatarUploadFailure } from '../shared/observability/metrics';
import { avatarConfig } from './avatar-config';
import { createAvatarService } from './avatar-context';
import type { AvatarImageSource, AvatarUploadRequest } from './avatar-service';
import { fetchImage } from './fetch';
import { cropAvatar } from './image';
import type { Avatar } from './schemas';

/** Fetches the source image SSRF-safely (its size and fetch time counted) and crops it with the avatar pipeline. */
export const fetchedAvatarImages: AvatarImageSource = {
  produce: async (url, crop) => {
    const started = performance.now();
    const fetched = await fetchImage(url);
    recordAvatarFetch(fetched.bytes.byteLength, performance.now() - started);
    return cropAvatar(fetched.bytes, crop, { maxPixels: avatarConfig().maxPixels });
  },
};

/** The process-wide avatar service of the upload routes, which ship the image library. */
export const avatarUploadService = /* @__PURE__ */ lazy(() => createAvatarService(fetchedAvatarImages));

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
