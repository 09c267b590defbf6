import sharp from 'sharp';
import { COLOURS, type ColourName, type Grid } from '../../fixtures/images/generate';

/**
 * Compares a produced avatar with the expected colour grid, pixel by pixel. The avatar is lossy
 * WebP, so each pixel is matched to the nearest of the four colours within a tolerance, and pixels
 * within `margin` pixels of a colour edge (where compression and scaling blend colours) are skipped.
 */

/** Largest per-channel difference still accepted as "that colour" after lossy compression. */
const TOLERANCE = 48;

/** A decoded image: raw interleaved pixels. */
export interface DecodedImage {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly data: Buffer;
}

/** Decodes an image to raw pixels. */
export async function decode(image: Buffer): Promise<DecodedImage> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: info.channels, data };
}

/** The pixel at (x, y), all channels. */
export function pixelAt(image: DecodedImage, x: number, y: number): number[] {
  const offset = (Math.floor(y) * image.width + Math.floor(x)) * image.channels;
  return [...image.data.subarray(offset, offset + image.channels)];
}

/** The named colour a pixel shows, or undefined when it is none of them within the tolerance. */
export function colourOf(pixel: readonly number[]): ColourName | undefined {
  return (Object.keys(COLOURS) as ColourName[]).find((name) =>
    COLOURS[name].every((channel, i) => Math.abs(channel - (pixel[i] ?? 0)) <= TOLERANCE),
  );
}

/** Result of a comparison: how many pixels were checked, and a description of each mismatch. */
export interface Comparison {
  readonly checked: number;
  readonly mismatches: readonly string[];
}

/**
 * Compares every pixel of `image` that lies at least `margin` pixels from a colour edge of
 * `expected` (a grid of any size: the image may be a scaled copy of it).
 */
export function compareWithGrid(image: DecodedImage, expected: Grid<ColourName>, margin = 2): Comparison {
  const scaleX = (expected[0]?.length ?? 0) / image.width;
  const scaleY = expected.length / image.height;
  const expectedAt = (x: number, y: number) => expected[Math.floor(y * scaleY)]?.[Math.floor(x * scaleX)];
  const mismatches: string[] = [];
  let checked = 0;
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) {
      const colour = expectedAt(x + 0.5, y + 0.5);
      const neighbours = [-margin, margin].flatMap((d) => [expectedAt(x + 0.5 + d, y + 0.5), expectedAt(x + 0.5, y + 0.5 + d)]);
      if (neighbours.some((neighbour) => neighbour !== undefined && neighbour !== colour)) continue;
      checked += 1;
      const actual = colourOf(pixelAt(image, x, y));
      if (actual !== colour) mismatches.push(`(${x},${y}) is ${actual ?? pixelAt(image, x, y).join('/')}, expected ${colour}`);
    }
  }
  return { checked, mismatches: mismatches.slice(0, 10) };
}
