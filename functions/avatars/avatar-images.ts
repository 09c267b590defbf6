import { ProblemError } from '../shared/errors';
import { recordAvatarFetch } from '../shared/observability/metrics';
import { avatarConfig } from './avatar-config';
import type { AvatarImageSource } from './avatar-service';
import { fetchImage } from './fetch';
import { cropAvatar, type AvatarCrop, type CroppedAvatar } from './image';
import { isUploadSource } from './uploads/upload-name';
import type { UploadedImages } from './uploads/uploaded-images';

/**
 * The image sources of the upload routes: the `source` of a file the user uploaded with a form, or
 * else an http(s) address, fetched SSRF-safely. The limits are those of the avatar configuration.
 */
export class AvatarImages implements AvatarImageSource {
  public constructor(private readonly uploads: UploadedImages) {}

  public produce(source: string, crop: AvatarCrop, ownerId: number): Promise<CroppedAvatar> {
    return isUploadSource(source) ? this.fromUpload(source, crop, ownerId) : this.fromAddress(source, crop);
  }

  public async used(source: string, ownerId: number): Promise<void> {
    if (isUploadSource(source)) await this.uploads.discard(ownerId, source);
  }

  /** Crops the image at an address (its size and fetch time counted). */
  private async fromAddress(url: string, crop: AvatarCrop): Promise<CroppedAvatar> {
    const { fetch, maxPixels } = avatarConfig();
    const started = performance.now();
    const fetched = await fetchImage(url, fetch);
    recordAvatarFetch(fetched.bytes.byteLength, performance.now() - started);
    return cropAvatar(fetched.bytes, crop, { maxPixels });
  }

  /**
   * Crops a file the user uploaded. A file the service refuses (too large, not an image, a crop
   * outside it) is deleted at once: posting it again cannot help. One that failed for another reason
   * (S3 did not answer) is kept, so the same request can be retried.
   */
  private async fromUpload(source: string, crop: AvatarCrop, ownerId: number): Promise<CroppedAvatar> {
    const { fetch, maxPixels } = avatarConfig();
    try {
      const bytes = await this.uploads.read(ownerId, source, fetch.maxBytes);
      return await cropAvatar(bytes, crop, { maxPixels });
    } catch (error) {
      if (error instanceof ProblemError && error.status < 500) await this.uploads.discard(ownerId, source);
      throw error;
    }
  }
}
