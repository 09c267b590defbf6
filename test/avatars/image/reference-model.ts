import type { Grid } from '../../fixtures/images/generate';

/**
 * The crop semantics written the naive way, cell by cell, straight from their definitions: the
 * independent reference that the pipeline's output is compared with.
 */

function build<T>(width: number, height: number, cell: (x: number, y: number) => T): T[][] {
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => cell(x, y)));
}

function at<T>(grid: Grid<T>, x: number, y: number): T {
  const value = grid[y]?.[x];
  if (value === undefined) throw new Error(`No cell at ${x},${y}`);
  return value;
}

const widthOf = (grid: Grid<unknown>) => grid[0]?.length ?? 0;

/** Rotates a quarter turn clockwise: the left column becomes the top row. */
export function rotateClockwise<T>(grid: Grid<T>): T[][] {
  const height = grid.length;
  return build(height, widthOf(grid), (x, y) => at(grid, y, height - 1 - x));
}

/** Rotates clockwise by `degrees`, a multiple of 90 (negative: counter-clockwise). */
export function rotate<T>(grid: Grid<T>, degrees: number): Grid<T> {
  let result: Grid<T> = grid;
  for (let turn = 0; turn < (((degrees / 90) % 4) + 4) % 4; turn += 1) result = rotateClockwise(result);
  return result;
}

/** Mirrors left–right. */
export function mirrorLeftRight<T>(grid: Grid<T>): T[][] {
  return grid.map((row) => [...row].reverse());
}

/** Mirrors top–bottom. */
export function mirrorTopBottom<T>(grid: Grid<T>): T[][] {
  return [...grid].reverse().map((row) => [...row]);
}

/** Applies `flip` as documented: `horizontal` swaps left and right, `vertical` top and bottom. */
export function flip<T>(grid: Grid<T>, how: 'horizontal' | 'vertical' | undefined): Grid<T> {
  if (how === 'horizontal') return mirrorLeftRight(grid);
  if (how === 'vertical') return mirrorTopBottom(grid);
  return grid;
}

/** Turns stored pixels upright as EXIF `Orientation` `tag` says (TIFF 6.0 / EXIF 2.3 definitions). */
export function exifUpright<T>(grid: Grid<T>, tag: number): Grid<T> {
  const width = widthOf(grid);
  const height = grid.length;
  switch (tag) {
    case 2:
      return mirrorLeftRight(grid);
    case 3:
      return build(width, height, (x, y) => at(grid, width - 1 - x, height - 1 - y));
    case 4:
      return mirrorTopBottom(grid);
    case 5: // transpose: the stored first row is the visual left column
      return build(height, width, (x, y) => at(grid, y, x));
    case 6:
      return rotateClockwise(grid);
    case 7: // transverse
      return build(height, width, (x, y) => at(grid, width - 1 - y, height - 1 - x));
    case 8:
      return build(height, width, (x, y) => at(grid, width - 1 - y, x));
    default:
      return grid;
  }
}

/** The square of side `size` with top-left corner (`left`, `top`). */
export function square<T>(grid: Grid<T>, left: number, top: number, size: number): T[][] {
  return build(size, size, (x, y) => at(grid, left + x, top + y));
}

/** What an avatar crop should show, by the documented semantics. */
export function expectedCrop<T>(
  stored: Grid<T>,
  crop: { left: number; top: number; size: number; rotate?: number; flip?: 'horizontal' | 'vertical' },
  exifTag = 1,
): T[][] {
  return square(flip(rotate(exifUpright(stored, exifTag), crop.rotate ?? 0), crop.flip), crop.left, crop.top, crop.size);
}
