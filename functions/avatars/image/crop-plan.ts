import type { FieldError } from '../../shared/errors';
import { CropOutsideImageError } from './errors';
import type { NormalisedCrop, QuarterTurns } from './crop-spec';

/**
 * The geometry of a crop, worked out before any pixel is touched. EXIF orientation, `rotate` and
 * `flip` are all symmetries of a rectangle (the dihedral group of order 8), so together they are one
 * such symmetry; and a square of the final image is the image of one square of the stored pixels.
 * The pipeline therefore cuts that square out of the stored pixels first and turns only the small
 * result, instead of turning the whole image: the same pixels, far less work, and no reliance on
 * the order in which the image library chains rotation, mirroring and extraction.
 */

/** A symmetry of a rectangle: mirror left–right when `mirrored`, then turn clockwise. */
export interface Orientation {
  readonly mirrored: boolean;
  readonly quarterTurns: QuarterTurns;
}

/** A square region in pixels. */
export interface Square {
  readonly left: number;
  readonly top: number;
  readonly size: number;
}

/** What to do to the stored pixels: cut out `source`, then apply `orientation` to it. */
export interface CropPlan {
  readonly source: Square;
  readonly orientation: Orientation;
}

/** Width and height in pixels. */
export interface Dimensions {
  readonly width: number;
  readonly height: number;
}

/** 2×2 matrix `[a, b, c, d]` acting on coordinates centred on the image, x to the right, y down. */
type Matrix = readonly [number, number, number, number];

const identity: Matrix = [1, 0, 0, 1];
const clockwiseQuarterTurn: Matrix = [0, -1, 1, 0];
const mirrorLeftRight: Matrix = [-1, 0, 0, 1];
const mirrorTopBottom: Matrix = [1, 0, 0, -1];

/** EXIF `Orientation` values 1–8 as the symmetry that turns the stored pixels upright. */
const exifOrientations: readonly Orientation[] = [
  { mirrored: false, quarterTurns: 0 },
  { mirrored: true, quarterTurns: 0 },
  { mirrored: false, quarterTurns: 2 },
  { mirrored: true, quarterTurns: 2 },
  { mirrored: true, quarterTurns: 3 },
  { mirrored: false, quarterTurns: 1 },
  { mirrored: true, quarterTurns: 1 },
  { mirrored: false, quarterTurns: 3 },
];

/** `p · q`: the transformation that applies `q`, then `p`. */
function multiply(p: Matrix, q: Matrix): Matrix {
  return [p[0] * q[0] + p[1] * q[2], p[0] * q[1] + p[1] * q[3], p[2] * q[0] + p[3] * q[2], p[2] * q[1] + p[3] * q[3]];
}

function turned(matrix: Matrix, quarterTurns: number): Matrix {
  let result = matrix;
  for (let turn = 0; turn < quarterTurns; turn += 1) result = multiply(clockwiseQuarterTurn, result);
  return result;
}

function toMatrix(orientation: Orientation): Matrix {
  return turned(orientation.mirrored ? mirrorLeftRight : identity, orientation.quarterTurns);
}

function toOrientation(matrix: Matrix): Orientation {
  const found = exifOrientations.find((candidate) => toMatrix(candidate).every((value, i) => value === matrix[i]));
  // Products of symmetries are symmetries, and the table lists all eight.
  if (found === undefined) throw new Error(`Not a symmetry of the rectangle: ${matrix.join(',')}`);
  return found;
}

/** The symmetry that EXIF `Orientation` `tag` asks for; missing or out-of-range tags mean upright. */
export function exifOrientation(tag: number | undefined): Orientation {
  return (tag === undefined ? undefined : exifOrientations[tag - 1]) ?? exifOrientations[0]!;
}

function outsideErrors(crop: Square, image: Dimensions): FieldError[] {
  const where = `the image is ${image.width}×${image.height} pixels after orientation, rotation and flip`;
  const errors: FieldError[] = [];
  if (crop.left >= image.width) errors.push({ name: 'crop.left', reason: `must be less than ${image.width}; ${where}` });
  if (crop.top >= image.height) errors.push({ name: 'crop.top', reason: `must be less than ${image.height}; ${where}` });
  if (errors.length === 0 && (crop.left + crop.size > image.width || crop.top + crop.size > image.height)) {
    const room = Math.min(image.width - crop.left, image.height - crop.top);
    errors.push({ name: 'crop.size', reason: `must be at most ${room} at this position; ${where}` });
  }
  return errors;
}

/**
 * Plans a crop of an image whose stored pixels measure `stored` and whose EXIF orientation tag is
 * `exifTag`: which square of the stored pixels to cut out, and how to turn it.
 *
 * @throws CropOutsideImageError (422, `crop_outside_image`) naming `crop.left`, `crop.top` or `crop.size`.
 */
export function planCrop(stored: Dimensions, exifTag: number | undefined, crop: NormalisedCrop): CropPlan {
  const flip = crop.flip === 'horizontal' ? mirrorLeftRight : crop.flip === 'vertical' ? mirrorTopBottom : identity;
  const total = multiply(flip, turned(toMatrix(exifOrientation(exifTag)), crop.quarterTurns));
  const swapsAxes = total[0] === 0;
  const result = swapsAxes ? { width: stored.height, height: stored.width } : stored;
  const errors = outsideErrors(crop, result);
  if (errors.length > 0) throw new CropOutsideImageError(errors);

  // Map two opposite corners back through the inverse (the transpose, as the matrix is orthogonal).
  // Coordinates are doubled so that centring on an odd side stays in integers.
  const back = (x: number, y: number) => [total[0] * x + total[2] * y, total[1] * x + total[3] * y] as const;
  const [x1, y1] = back(2 * crop.left - result.width, 2 * crop.top - result.height);
  const [x2, y2] = back(2 * (crop.left + crop.size) - result.width, 2 * (crop.top + crop.size) - result.height);
  const source = {
    left: (Math.min(x1, x2) + stored.width) / 2,
    top: (Math.min(y1, y2) + stored.height) / 2,
    size: crop.size,
  };
  return { source, orientation: toOrientation(total) };
}
