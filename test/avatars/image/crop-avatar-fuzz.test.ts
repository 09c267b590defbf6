import fc from 'fast-check';
import { cropAvatar, type AvatarCrop } from '../../../functions/avatars/image';
import { ProblemError } from '../../../functions/shared/errors';
import { quadrantImage } from '../../fixtures/images/generate';

/**
 * Whatever the bytes and crop settings, the pipeline answers with an avatar or with a 400 / 422
 * problem: damaged files and odd settings never surface as an unhandled error (a 500).
 */

const formats = ['jpeg', 'png', 'webp', 'gif'] as const;

/** A valid image with some bytes overwritten and possibly cut short. */
const damagedImage = (sources: readonly Buffer[]) =>
  fc
    .record({
      source: fc.constantFrom(...sources),
      edits: fc.array(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), { maxLength: 8 }),
      keep: fc.oneof(fc.constant(1), fc.double({ min: 0.05, max: 1, noNaN: true })),
    })
    .map(({ source, edits, keep }) => {
      const bytes = Buffer.from(source.subarray(0, Math.max(1, Math.floor(source.length * keep))));
      for (const { at, value } of edits) bytes[at % bytes.length] = value;
      return bytes;
    });

/** Crop settings of every kind, mostly malformed. */
const anyCrop: fc.Arbitrary<AvatarCrop> = fc.record({
  left: fc.oneof(fc.integer({ min: -5, max: 60 }), fc.double()),
  top: fc.oneof(fc.integer({ min: -5, max: 60 }), fc.double()),
  size: fc.oneof(fc.integer({ min: -1, max: 70 }), fc.double()),
  rotate: fc.oneof(fc.constantFrom(-450, -90, 0, 90, 180, 270, 360), fc.integer(), fc.double()),
  flip: fc.constantFrom(undefined, 'horizontal', 'vertical', 'sideways' as 'horizontal'),
});

/** Well-formed crop settings that fit the undamaged 48×32 sources in every orientation. */
const fittingCrop: fc.Arbitrary<AvatarCrop> = fc.record({
  left: fc.integer({ min: 0, max: 15 }),
  top: fc.integer({ min: 0, max: 15 }),
  size: fc.integer({ min: 1, max: 16 }),
  rotate: fc.constantFrom(-90, 0, 90, 180, 270),
  flip: fc.constantFrom(undefined, 'horizontal' as const, 'vertical' as const),
});

/** Resolves with the avatar's side, or fails the property unless the rejection is a 400 or 422 problem. */
async function expectAvatarOrProblem(bytes: Buffer, crop: AvatarCrop): Promise<void> {
  const outcome = await cropAvatar(bytes, crop, { maxPixels: 40_000_000 }).then(
    (avatar) => avatar.width,
    (error: unknown) => error,
  );
  if (typeof outcome === 'number') return;
  expect(outcome).toBeInstanceOf(ProblemError);
  expect([400, 422]).toContain((outcome as ProblemError).status);
}

describe('cropAvatar never fails with anything but a problem', () => {
  let sources: Buffer[];
  beforeAll(async () => {
    sources = await Promise.all(formats.map((format) => quadrantImage(48, 32, format)));
  });

  it('decodes damaged and truncated images to an avatar or a 422', async () => {
    await fc.assert(fc.asyncProperty(damagedImage(sources), fittingCrop, expectAvatarOrProblem), { numRuns: 300 });
  });

  it('answers arbitrary crop settings with an avatar, a 400 or a 422', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...sources), anyCrop, expectAvatarOrProblem), { numRuns: 300 });
  });
});
