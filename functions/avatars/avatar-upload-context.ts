import { createAvatarService } from './avatar-context';
import type { AvatarImageSource, AvatarService } from './avatar-service';
import { fetchImage } from './fetch';
import { cropAvatar } from './image';

/** Fetches the source image SSRF-safely and crops it with the avatar pipeline. */
export const fetchedAvatarImages: AvatarImageSource = {
  produce: async (url, crop) => cropAvatar((await fetchImage(url)).bytes, crop),
};

let uploads: AvatarService | undefined;

/** The process-wide avatar service of the upload routes, which ship the image library. */
export function avatarUploadService(): AvatarService {
  uploads ??= createAvatarService(fetchedAvatarImages);
  return uploads;
}
