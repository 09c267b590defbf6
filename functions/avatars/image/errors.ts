import { UnprocessableError } from '../../shared/errors';

/**
 * The 422 answers of the image pipeline. Each names the `avatar` field, the request field that
 * points at the image, and keeps the decoder's own message as `cause` for the logs only.
 */

/** 422 `unsupported_image`: not a JPEG, PNG, WebP or GIF file. */
export function unsupportedImage(): UnprocessableError {
  return new UnprocessableError('unsupported_image', 'The file is not a JPEG, PNG, WebP or GIF image.', [
    { name: 'avatar', reason: 'must be a JPEG, PNG, WebP or GIF image' },
  ]);
}

/** 422 `invalid_image`: a recognised format, but damaged or truncated. */
export function invalidImage(reason: string, cause?: unknown): UnprocessableError {
  const error = new UnprocessableError('invalid_image', 'The image is damaged or truncated and cannot be decoded.', [
    { name: 'avatar', reason },
  ]);
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** 422 `too_many_pixels`: the image has more pixels than the cap allows. */
export function tooManyPixels(maxPixels: number, declared?: string, cause?: unknown): UnprocessableError {
  const size = declared === undefined ? 'more pixels' : `${declared} pixels`;
  const error = new UnprocessableError('too_many_pixels', `The image has ${size}; at most ${maxPixels} are allowed.`, [
    { name: 'avatar', reason: `must have at most ${maxPixels} pixels` },
  ]);
  if (cause !== undefined) error.cause = cause;
  return error;
}
