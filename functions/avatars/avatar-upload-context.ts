import { avatarConfig } from './avatar-config';
import { createAvatarService } from './avatar-context';
import { lazy } from '../shared/lazy';
import type { AvatarImageSource } from './avatar-service';
import { fetchImage } from './fetch';
import { cropAvatar } from './image';

/** Fetches the source image SSRF-safely and crops it with the avatar pipeline. */
export const fetchedAvatarImages: AvatarImageSource = {
  produce: async (url, crop) => cropAvatar((await fetchImage(url)).bytes, crop, { maxPixels: avatarConfig().maxPixels }),
};

/** The process-wide avatar service of the upload routes, which ship the image library. */
export const avatarUploadService = /* @__PURE__ */ lazy(() => createAvatarService(fetchedAvatarImages));
