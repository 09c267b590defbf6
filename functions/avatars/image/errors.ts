import { UnprocessableError, type FieldError } from '../../shared/errors';

/**
 * The 422 answers of the image pipeline, one class each so that callers (and the metrics of failed
 * uploads) can tell them apart. Each names the `avatar` field, the request field that points at
 * the image, and keeps the decoder's own message as `cause` for the logs only.
 */

/** 422 `unsupported_image`: not a JPEG, PNG, WebP or GIF file. */
export class UnsupportedImageError extends UnprocessableError {
  public constructor() {
    super('unsupported_image', 'The file is not a JPEG, PNG, WebP or GIF image.', [{ name: 'avatar', reason: 'must be a JPEG, PNG, WebP or GIF image' }]);
    this.name = 'UnsupportedImageError';
  }
}

/** 422 `invalid_image`: a recognised format, but damaged or truncated. */
export class InvalidImageError extends UnprocessableError {
  public constructor(reason: string, cause?: unknown) {
    super('invalid_image', 'The image is damaged or truncated and cannot be decoded.', [{ name: 'avatar', reason }], cause);
    this.name = 'InvalidImageError';
  }
}

/** 422 `too_many_pixels`: the image has more pixels than the cap allows. */
export class TooManyPixelsError extends UnprocessableError {
  public constructor(maxPixels: number, declared?: string, cause?: unknown) {
    const size = declared === undefined ? 'more pixels' : `${declared} pixels`;
    super('too_many_pixels', `The image has ${size}; at most ${maxPixels} are allowed.`, [{ name: 'avatar', reason: `must have at most ${maxPixels} pixels` }], cause);
    this.name = 'TooManyPixelsError';
  }
}

/** 422 `crop_outside_image`: the crop square does not lie inside the (rotated, flipped) image. */
export class CropOutsideImageError extends UnprocessableError {
  public constructor(errors: readonly FieldError[]) {
    super('crop_outside_image', 'The crop square lies outside the image.', errors);
    this.name = 'CropOutsideImageError';
  }
}
