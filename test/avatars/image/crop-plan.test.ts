import fc from 'fast-check';
import { exifOrientation, planCrop } from '../../../functions/avatars/image/crop-plan';
import { normaliseCrop } from '../../../functions/avatars/image/crop-spec';
import { UnprocessableError } from '../../../functions/shared/errors';
import type { Grid } from '../../fixtures/images/generate';
import { expectedCrop, mirrorLeftRight, rotate, square } from './reference-model';

/**
 * The crop geometry, exactly: for images whose every pixel is distinct, cutting the planned square
 * from the stored pixels and turning it as planned must give, cell for cell, what the documented
 * order (EXIF orientation, rotate, flip, square) gives.
 */

function distinctCells(width: number, height: number): Grid<number> {
  return Array.from({ length: height }, (_, y) => Array.from({ length: width }, (_, x) => y * width + x));
}

const scenario = fc
  .record({
    width: fc.integer({ min: 1, max: 13 }),
    height: fc.integer({ min: 1, max: 13 }),
    exifTag: fc.integer({ min: 1, max: 8 }),
    rotate: fc.constantFrom(-270, -180, -90, 0, 90, 180, 270, 360, 450),
    flip: fc.constantFrom(undefined, 'horizontal' as const, 'vertical' as const),
  })
  .chain((image) => {
    const quarter = image.exifTag >= 5 !== (Math.abs(image.rotate / 90) % 2 === 1);
    const [width, height] = quarter ? [image.height, image.width] : [image.width, image.height];
    return fc
      .integer({ min: 1, max: Math.min(width, height) })
      .chain((size) =>
        fc.record({ size: fc.constant(size), left: fc.integer({ min: 0, max: width - size }), top: fc.integer({ min: 0, max: height - size }) }),
      )
      .map((crop) => ({ ...image, crop: { ...crop, rotate: image.rotate, ...(image.flip ? { flip: image.flip } : {}) } }));
  });

describe('planCrop', () => {
  it('cuts and turns a square of the stored pixels into exactly the documented crop', () => {
    fc.assert(
      fc.property(scenario, ({ width, height, exifTag, crop }) => {
        const stored = distinctCells(width, height);

        const plan = planCrop({ width, height }, exifTag, normaliseCrop(crop));

        const cut = square(stored, plan.source.left, plan.source.top, plan.source.size);
        const turned = rotate(plan.orientation.mirrored ? mirrorLeftRight(cut) : cut, plan.orientation.quarterTurns * 90);
        expect(turned).toEqual(expectedCrop(stored, crop, exifTag));
      }),
      { numRuns: 2000 },
    );
  });

  it('treats a missing or unknown EXIF orientation as upright', () => {
    expect(exifOrientation(undefined)).toEqual({ mirrored: false, quarterTurns: 0 });
    expect(exifOrientation(0)).toEqual({ mirrored: false, quarterTurns: 0 });
    expect(exifOrientation(9)).toEqual({ mirrored: false, quarterTurns: 0 });
  });

  it('measures the crop against the image after orientation and rotation', () => {
    // Stored 30×10 with orientation 6 is 10×30 upright, and 30×10 again after another quarter turn.
    const crop = normaliseCrop({ left: 20, top: 0, size: 10, rotate: 90 });
    expect(planCrop({ width: 30, height: 10 }, 6, crop).source.size).toBe(10);
    expect(() => planCrop({ width: 30, height: 10 }, 6, normaliseCrop({ left: 20, top: 0, size: 10, rotate: 0 }))).toThrow(
      UnprocessableError,
    );
  });
});
