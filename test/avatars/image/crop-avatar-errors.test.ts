import sharp from 'sharp';
import { avatarConfig } from '../../../functions/avatars/avatar-config';
import { cropAvatar, type AvatarCrop } from '../../../functions/avatars/image';
import { resetConfiguration } from '../../../functions/shared/config/define-config';
import { ProblemError, UnprocessableError, ValidationError } from '../../../functions/shared/errors';
import { pngDeclaring, quadrantImage } from '../../fixtures/images/generate';

/**
 * Every way an upload's image or crop can be unusable ends in a 400 or a 422 that names the cause,
 * never in an unhandled decoder error (a 500).
 */

const limits = { maxPixels: 40_000_000 };
const anyCrop: AvatarCrop = { left: 0, top: 0, size: 10, rotate: 0 };

/** The problem that `promise` rejects with; fails the test when it resolves or throws anything else. */
async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error: unknown = await promise.then(
    () => new Error('expected a rejection'),
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

describe('cropAvatar: crop settings', () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await quadrantImage(80, 40);
  });

  it.each([45, 90.5, -30, 1])('rejects rotate %p with a 400 naming crop.rotate', async (rotate) => {
    const problem = await problemOf(cropAvatar(png, { ...anyCrop, rotate }, limits));
    expect(problem).toBeInstanceOf(ValidationError);
    expect(problem.status).toBe(400);
    expect(problem.errors).toEqual([{ name: 'crop.rotate', reason: expect.stringContaining('multiple of 90') }]);
  });

  it('names every malformed field at once', async () => {
    const crop = { left: -1, top: 1.5, size: 0, rotate: 0, flip: 'diagonal' } as unknown as AvatarCrop;
    const problem = await problemOf(cropAvatar(png, crop, limits));
    expect(problem.status).toBe(400);
    expect(problem.errors?.map((error) => error.name)).toEqual(['crop.left', 'crop.top', 'crop.size', 'crop.flip']);
  });

  it.each([
    { field: 'crop.left', crop: { left: 80, top: 0, size: 1 } },
    { field: 'crop.top', crop: { left: 0, top: 40, size: 1 } },
    { field: 'crop.size', crop: { left: 50, top: 0, size: 31 } },
    { field: 'crop.size', crop: { left: 0, top: 10, size: 31 } },
  ])('answers a square outside the image with a 422 naming $field', async ({ field, crop }) => {
    const problem = await problemOf(cropAvatar(png, { ...crop, rotate: 0 }, limits));
    expect(problem).toBeInstanceOf(UnprocessableError);
    expect(problem.code).toBe('crop_outside_image');
    expect(problem.errors?.map((error) => error.name)).toEqual([field]);
  });

  it('checks the square against the rotated image, not the stored one', async () => {
    // 80×40 turned a quarter is 40×80: left 50 fits the stored image but not the rotated one.
    const problem = await problemOf(cropAvatar(png, { left: 50, top: 50, size: 10, rotate: 90 }, limits));
    expect(problem.errors).toEqual([{ name: 'crop.left', reason: expect.stringContaining('40×80') }]);
    await expect(cropAvatar(png, { left: 30, top: 70, size: 10, rotate: 90 }, limits)).resolves.toBeDefined();
  });
});

describe('cropAvatar: images that cannot be used', () => {
  it('refuses a PNG that declares 30000×30000 pixels from its header alone, quickly', async () => {
    const bomb = pngDeclaring(30_000, 30_000);
    const started = performance.now();
    const problem = await problemOf(cropAvatar(bomb, anyCrop, limits));
    expect(performance.now() - started).toBeLessThan(50);
    expect(problem.status).toBe(422);
    expect(problem.code).toBe('too_many_pixels');
    // Only the header check knows the declared dimensions; the decoder's refusal does not name them.
    expect(problem.detail).toContain('30000×30000');
  });

  it('applies a lower pixel cap from the limits, which the configuration reads from AVATAR_MAX_PIXELS', async () => {
    const png = await quadrantImage(80, 40);
    expect((await problemOf(cropAvatar(png, anyCrop, { maxPixels: 3199 }))).code).toBe('too_many_pixels');
    await expect(cropAvatar(png, anyCrop, { maxPixels: 3200 })).resolves.toBeDefined();

    process.env.AVATAR_MAX_PIXELS = '3199';
    try {
      resetConfiguration();
      expect(avatarConfig().maxPixels).toBe(3199);
    } finally {
      delete process.env.AVATAR_MAX_PIXELS;
      resetConfiguration();
    }
    expect(avatarConfig().maxPixels).toBe(40_000_000);
  });

  it('caps the pixels the decoder sees when the header understates them', async () => {
    const gif = Buffer.from(await sharp({ create: { width: 64, height: 64, channels: 3, background: 'red' } }).gif().toBuffer());
    gif.writeUInt16LE(2, 6); // logical screen 2×2, frame 64×64
    gif.writeUInt16LE(2, 8);
    const problem = await problemOf(cropAvatar(gif, { left: 0, top: 0, size: 1, rotate: 0 }, { maxPixels: 1000 }));
    expect(problem.code).toBe('too_many_pixels');
  });

  it.each([
    { kind: 'text', bytes: Buffer.from('hello, this is not an image') },
    { kind: 'an SVG (which the decoder would render)', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>') },
    { kind: 'an empty file', bytes: Buffer.alloc(0) },
  ])('answers $kind with 422 unsupported_image', async ({ bytes }) => {
    const problem = await problemOf(cropAvatar(bytes, anyCrop, limits));
    expect(problem.status).toBe(422);
    expect(problem.code).toBe('unsupported_image');
    expect(problem.errors).toEqual([{ name: 'avatar', reason: expect.any(String) }]);
  });

  it.each([
    { part: 'the bottom', crop: { left: 0, top: 40, size: 40, rotate: 0 } },
    { part: 'only the intact top', crop: { left: 0, top: 0, size: 10, rotate: 0 } },
  ])('answers a truncated JPEG with 422 invalid_image, even for a crop of $part', async ({ crop }) => {
    const jpeg = await quadrantImage(80, 80, 'jpeg');
    const problem = await problemOf(cropAvatar(jpeg.subarray(0, Math.floor(jpeg.length / 2)), crop, limits));
    expect(problem.status).toBe(422);
    expect(problem.code).toBe('invalid_image');
  });

  it.each(['png', 'webp'] as const)('answers a truncated %s with 422 invalid_image', async (format) => {
    const image = await quadrantImage(80, 80, format);
    const problem = await problemOf(cropAvatar(image.subarray(0, image.length - 20), anyCrop, limits));
    expect(problem.code).toBe('invalid_image');
  });

  it('turns a decoder failure inside an intact file into 422 invalid_image', async () => {
    const noise = Buffer.from(Array.from({ length: 200 * 200 * 3 }, (_, i) => (i * 7) % 251));
    const jpeg = Buffer.from(await sharp(noise, { raw: { width: 200, height: 200, channels: 3 } }).jpeg().toBuffer());
    const scan = jpeg.indexOf(Buffer.from([0xff, 0xda]));
    for (let i = scan + 200; i < scan + 2000; i += 3) jpeg[i] = 0xff;

    const problem = await problemOf(cropAvatar(jpeg, anyCrop, limits));

    expect(problem.code).toBe('invalid_image');
    expect(problem.cause).toBeInstanceOf(Error);
  });
});
