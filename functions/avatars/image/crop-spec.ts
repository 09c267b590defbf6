import { ValidationError, type FieldError } from '../../shared/errors';

/**
 * The crop settings of an avatar upload, their documented semantics and their validation.
 */

/**
 * The crop semantics, as the API documentation states them (the OpenAPI document quotes this text,
 * so the code and the documentation say the same):
 *
 * 1. The image is turned upright according to its EXIF orientation.
 * 2. It is rotated clockwise by `rotate` degrees (a multiple of 90; negative turns counter-clockwise).
 * 3. It is mirrored by `flip`: `horizontal` swaps left and right, `vertical` top and bottom.
 * 4. The square (`left`, `top`, `size`) is cut out of the image that steps 1–3 produced.
 */
export const AVATAR_CROP_DESCRIPTION = [
  'The crop settings apply in this order:',
  '1. The image is turned upright according to its EXIF orientation.',
  '2. It is rotated clockwise by `rotate` degrees, a multiple of 90 (default 0): negative values turn counter-clockwise, 360 is the same as 0; any other value is a 400.',
  '3. It is mirrored by `flip` (default none): `horizontal` swaps left and right, `vertical` swaps top and bottom.',
  '4. The square of side `size` whose top-left corner is at (`left`, `top`) is cut out of the image that steps 1–3 produced; a square that does not lie inside that image is a 422 naming the field at fault.',
  '',
  'The avatar is that square as a WebP image of min(`size`, 512) × min(`size`, 512) pixels, without metadata (no EXIF). Transparency is kept; of an animated image, the first frame is used.',
].join('\n');

/** The mirrors that `crop.flip` offers. */
export const AvatarFlip = {
  /** Mirror left–right (about the vertical axis). */
  horizontal: 'horizontal',
  /** Mirror top–bottom (about the horizontal axis). */
  vertical: 'vertical',
} as const;

/** One of the {@link AvatarFlip} values. */
export type AvatarFlip = (typeof AvatarFlip)[keyof typeof AvatarFlip];

/** The crop settings as a client sends them; see the module description for their semantics. */
export interface AvatarCrop {
  /** Column of the square's left edge, in pixels from the left of the rotated and flipped image. */
  readonly left: number;
  /** Row of the square's top edge, in pixels from the top of the rotated and flipped image. */
  readonly top: number;
  /** Side of the square in pixels, at least 1. */
  readonly size: number;
  /** Clockwise rotation in degrees, a multiple of 90 (default 0). */
  readonly rotate?: number;
  /** Mirror applied after the rotation (default none). */
  readonly flip?: AvatarFlip;
}

/** Number of clockwise quarter turns, 0–3. */
export type QuarterTurns = 0 | 1 | 2 | 3;

/** Crop settings checked and normalised: the rotation as quarter turns in 0–3. */
export interface NormalisedCrop {
  readonly left: number;
  readonly top: number;
  readonly size: number;
  readonly quarterTurns: QuarterTurns;
  readonly flip?: AvatarFlip;
}

const flips: readonly unknown[] = Object.values(AvatarFlip);

function integerField(name: string, value: unknown, minimum: number, errors: FieldError[]): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    errors.push({ name, reason: `must be an integer of at least ${minimum}` });
    return 0;
  }
  return value;
}

function quarterTurns(rotate: unknown, errors: FieldError[]): QuarterTurns {
  if (rotate === undefined) return 0;
  if (typeof rotate !== 'number' || !Number.isSafeInteger(rotate) || rotate % 90 !== 0) {
    errors.push({ name: 'crop.rotate', reason: 'must be a multiple of 90 degrees' });
    return 0;
  }
  // `% 4` of a negative number is negative; adding 4 first brings -90 to three clockwise turns.
  return ((((rotate / 90) % 4) + 4) % 4) as QuarterTurns;
}

/**
 * Checks the shape of crop settings and normalises the rotation; every invalid field is named.
 * Whether the square lies inside the image is checked later, against the image.
 *
 * @throws ValidationError (400) naming `crop.left`, `crop.top`, `crop.size`, `crop.rotate` or `crop.flip`.
 */
export function normaliseCrop(crop: AvatarCrop): NormalisedCrop {
  const errors: FieldError[] = [];
  const left = integerField('crop.left', crop.left, 0, errors);
  const top = integerField('crop.top', crop.top, 0, errors);
  const size = integerField('crop.size', crop.size, 1, errors);
  const turns = quarterTurns(crop.rotate, errors);
  if (crop.flip !== undefined && !flips.includes(crop.flip)) {
    errors.push({ name: 'crop.flip', reason: `must be one of ${flips.join(', ')}` });
  }
  if (errors.length > 0) throw new ValidationError(errors, 'The crop settings are invalid.');
  return { left, top, size, quarterTurns: turns, ...(crop.flip === undefined ? {} : { flip: crop.flip }) };
}
