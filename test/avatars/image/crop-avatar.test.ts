import sharp from 'sharp';
import { cropAvatar, type AvatarCrop } from '../../../functions/avatars/image';
import {
  animatedGif,
  encodeGrid,
  quadrantGrid,
  quadrantImage,
  rawPixels,
  solidGrid,
  type ColourName,
  type Grid,
} from '../../fixtures/images/generate';
import { compareWithGrid, decode } from './pixel-assertions';
import { expectedCrop } from './reference-model';

/**
 * The crop pipeline against the documented semantics, pixel by pixel: every rotation × flip, crops
 * at the corners, whole and scaled crops, and EXIF orientations. Error cases live in
 * crop-avatar-errors.test.ts.
 */

const limits = { maxPixels: 40_000_000 };

/** Crops `image`, then checks size and every pixel against the reference model. */
async function expectCropMatches(image: Buffer, stored: Grid<ColourName>, crop: AvatarCrop, exifTag = 1): Promise<void> {
  const result = await cropAvatar(image, crop, limits);
  const side = Math.min(crop.size, 512);
  expect({ width: result.width, height: result.height }).toEqual({ width: side, height: side });
  const output = await decode(result.webp);
  expect({ width: output.width, height: output.height }).toEqual({ width: side, height: side });
  const comparison = compareWithGrid(output, expectedCrop(stored, crop, exifTag));
  expect(comparison.mismatches).toEqual([]);
  expect(comparison.checked).toBeGreaterThan(side * side * 0.5);
}

describe('cropAvatar: rotate, then flip, then the square of the result', () => {
  // 80×40: wide enough that a quarter turn changes the shape, quadrants so that all eight
  // symmetries look different.
  const stored = quadrantGrid(80, 40);
  let png: Buffer;
  beforeAll(async () => {
    png = await encodeGrid(stored, 'png');
  });

  const rotations = [0, 90, 180, 270, -90];
  const flips = [undefined, 'horizontal', 'vertical'] as const;
  const cases = rotations.flatMap((rotate) => flips.map((flip) => ({ rotate, flip })));

  it.each(cases)('rotate $rotate, flip $flip: the centre square shows all four quadrants, placed as documented', async ({ rotate, flip }) => {
    const upright = rotate % 180 === 0;
    // The centre square of the 80×40 (or, turned, 40×80) result: it shows a part of every quadrant.
    const crop = { left: upright ? 20 : 0, top: upright ? 0 : 20, size: 40, rotate, ...(flip ? { flip } : {}) };
    await expectCropMatches(png, stored, crop);
  });

  it.each([
    { rotate: 360, same: 0 },
    { rotate: 450, same: 90 },
    { rotate: -270, same: 90 },
    { rotate: -180, same: 180 },
  ])('rotate $rotate gives the same pixels as rotate $same', async ({ rotate, same }) => {
    const crop = { left: 0, top: 0, size: 20, flip: 'horizontal' as const };
    const [a, b] = await Promise.all([cropAvatar(png, { ...crop, rotate }, limits), cropAvatar(png, { ...crop, rotate: same }, limits)]);
    expect((await decode(a.webp)).data.equals((await decode(b.webp)).data)).toBe(true);
  });

  it.each([
    { corner: 'top-left', left: 0, top: 0, rotate: 0 },
    { corner: 'top-right', left: 60, top: 0, rotate: 0 },
    { corner: 'bottom-left', left: 0, top: 20, rotate: 0 },
    { corner: 'bottom-right', left: 60, top: 20, rotate: 0 },
    { corner: 'top-left', left: 0, top: 0, rotate: 90 },
    { corner: 'top-right', left: 20, top: 0, rotate: 90 },
    { corner: 'bottom-left', left: 0, top: 60, rotate: 90 },
    { corner: 'bottom-right', left: 20, top: 60, rotate: 90 },
  ])('a $corner corner crop after rotate $rotate shows that corner of the rotated image', async ({ left, top, rotate }) => {
    await expectCropMatches(png, stored, { left, top, size: 20, rotate });
  });

  it('cuts squares at odd offsets from an odd-sized image exactly', async () => {
    const odd = quadrantGrid(45, 27);
    const image = await encodeGrid(odd, 'png');
    await expectCropMatches(image, odd, { left: 3, top: 17, size: 9, rotate: 90, flip: 'vertical' });
    await expectCropMatches(image, odd, { left: 15, top: 33, size: 11, rotate: -90, flip: 'horizontal' });
  });
});

describe('cropAvatar: size of the output', () => {
  it('returns the whole image when the crop covers all of a square image', async () => {
    const stored = quadrantGrid(64, 64);
    await expectCropMatches(await encodeGrid(stored, 'png'), stored, { left: 0, top: 0, size: 64, rotate: 0 });
  });

  it('scales a crop larger than 512 pixels down to 512×512', async () => {
    const stored = quadrantGrid(720, 540);
    const image = await encodeGrid(stored, 'png');
    await expectCropMatches(image, stored, { left: 100, top: 0, size: 540, rotate: 0 });
  });

  it('scales after rotating and flipping a large crop, with the same geometry', async () => {
    const stored = quadrantGrid(720, 540);
    const image = await encodeGrid(stored, 'jpeg');
    await expectCropMatches(image, stored, { left: 0, top: 150, size: 530, rotate: 90, flip: 'horizontal' });
  });

  it('encodes WebP and keeps no metadata, not even of an EXIF-tagged source', async () => {
    const image = await sharp(await quadrantImage(80, 40, 'jpeg'))
      .withExif({ IFD0: { Copyright: 'someone', Orientation: '6' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(image).metadata()).exif).toBeDefined();

    const result = await cropAvatar(image, { left: 0, top: 0, size: 40, rotate: 0 }, limits);

    const metadata = await sharp(result.webp).metadata();
    expect(metadata.format).toBe('webp');
    expect(metadata.exif).toBeUndefined();
    expect(metadata.icc).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(result.webp.includes('someone')).toBe(false);
  });
});

describe('cropAvatar: EXIF orientation is applied before everything else', () => {
  const stored = quadrantGrid(80, 40);

  it('turns a JPEG tagged with orientation 6 (rotate 90° clockwise) upright', async () => {
    const jpeg = await encodeGrid(stored, 'jpeg', { orientation: 6 });
    expect((await sharp(jpeg).metadata()).orientation).toBe(6);
    // Upright, the image is 40×80: red top-right, green bottom-right, blue top-left, yellow bottom-left.
    const result = await decode((await cropAvatar(jpeg, { left: 0, top: 20, size: 40, rotate: 0 }, limits)).webp);
    expect(compareWithGrid(result, [['blue', 'red'], ['yellow', 'green']]).mismatches).toEqual([]);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('orientation %i, then rotate 90 and a horizontal flip', async (tag) => {
    const jpeg = await encodeGrid(stored, 'jpeg', { orientation: tag });
    const uprightIsWide = tag <= 4;
    // After orientation and a quarter turn the image is 40×80 if it was wide, else 80×40.
    const crop = { left: uprightIsWide ? 0 : 20, top: uprightIsWide ? 20 : 0, size: 40, rotate: 90, flip: 'horizontal' as const };
    await expectCropMatches(jpeg, stored, crop, tag);
  });
});

describe('cropAvatar: formats', () => {
  it.each(['jpeg', 'webp', 'gif'] as const)('crops a %s image', async (format) => {
    const stored = quadrantGrid(80, 40);
    await expectCropMatches(await encodeGrid(stored, format), stored, { left: 30, top: 0, size: 40, rotate: 180 });
  });

  it('crops a 16-bit PNG', async () => {
    const stored = quadrantGrid(80, 40);
    const png16 = await sharp(rawPixels(stored, 3), { raw: { width: 80, height: 40, channels: 3 } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect((await sharp(png16).metadata()).depth).toBe('ushort');
    await expectCropMatches(png16, stored, { left: 20, top: 0, size: 40, rotate: 180, flip: 'vertical' });
  });

  it('keeps transparency of a PNG, moved with the pixels', async () => {
    // Alpha: top-left transparent, top-right half transparent, bottom opaque.
    const alpha = (x: number, y: number) => (y >= 20 ? 255 : x < 40 ? 0 : 128);
    const png = await sharp(rawPixels(quadrantGrid(80, 40), 4, alpha), { raw: { width: 80, height: 40, channels: 4 } }).png().toBuffer();

    const result = await decode((await cropAvatar(png, { left: 20, top: 0, size: 40, rotate: 180 }, limits)).webp);

    // Turned 180°: the opaque bottom is now on top, the transparent top-left at the bottom-right.
    expect(result.channels).toBe(4);
    const alphaAt = (x: number, y: number) => result.data[(y * 40 + x) * 4 + 3];
    expect(alphaAt(10, 10)).toBe(255);
    expect(alphaAt(30, 10)).toBe(255);
    expect(alphaAt(30, 30)).toBe(0);
    expect(Math.abs((alphaAt(10, 30) ?? 0) - 128)).toBeLessThanOrEqual(2);
  });

  it('gives an opaque avatar for an opaque source', async () => {
    const result = await cropAvatar(await quadrantImage(80, 40, 'jpeg'), { left: 0, top: 0, size: 40, rotate: 0 }, limits);
    expect((await sharp(result.webp).metadata()).hasAlpha).toBe(false);
  });

  it('uses the first frame of an animated GIF', async () => {
    const gif = await animatedGif(['red', 'blue', 'green'], 32);
    expect((await sharp(gif, { animated: true }).metadata()).pages).toBe(3);

    const result = await cropAvatar(gif, { left: 0, top: 0, size: 32, rotate: 0 }, limits);

    expect(compareWithGrid(await decode(result.webp), solidGrid(32, 32, 'red')).mismatches).toEqual([]);
  });
});
