import { normaliseCrop } from '../../../functions/avatars/image/crop-spec';
import { ValidationError } from '../../../functions/shared/errors';

describe('normaliseCrop', () => {
  it.each([
    [0, 0],
    [90, 1],
    [180, 2],
    [270, 3],
    [360, 0],
    [450, 1],
    [-90, 3],
    [-180, 2],
    [-270, 1],
    [-360, 0],
    [undefined, 0],
  ])('turns rotate %p into %i clockwise quarter turns', (rotate, quarterTurns) => {
    expect(normaliseCrop({ left: 0, top: 0, size: 1, ...(rotate === undefined ? {} : { rotate }) }).quarterTurns).toBe(quarterTurns);
  });

  it('keeps the position, size and flip', () => {
    expect(normaliseCrop({ left: 3, top: 4, size: 5, rotate: 0, flip: 'vertical' })).toEqual({
      left: 3,
      top: 4,
      size: 5,
      quarterTurns: 0,
      flip: 'vertical',
    });
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 1e300, 45])('refuses rotate %p as crop.rotate', (rotate) => {
    expect(() => normaliseCrop({ left: 0, top: 0, size: 1, rotate })).toThrow(ValidationError);
  });
});
