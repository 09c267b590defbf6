import * as z from '../shared/validation/zod';
import { AvatarFlip } from './image/crop-spec';

/**
 * The avatar upload request of the interface (api-spec.md section 2, "Avatar upload request"),
 * defined once: it validates input at the edge and generates the OpenAPI document. The crop
 * semantics themselves live with the image pipeline (image/crop-spec.ts). The upload form and
 * delete routes define their small inputs beside them, so that their functions build none of this.
 */

/** Longest source image address accepted (the common browser and CDN limit). */
export const MAX_AVATAR_URL_LENGTH = 2048;

/** Largest `left`, `top` and `size`: no image within the 40 MP cap is wider or taller than this. */
export const MAX_CROP_COORDINATE = 100_000;

/** Largest rotation in either direction; a full turn is the same as none. */
export const MAX_CROP_ROTATION = 360;

const coordinate = (minimum: number) =>
  z.number().check(z.int(), z.gte(minimum), z.lte(MAX_CROP_COORDINATE, `Must be at most ${MAX_CROP_COORDINATE}.`));

/** The `crop` object: `left`, `top` and `size` required; `rotate` and `flip` optional. */
export const AvatarCropSchema = z.strictObject({
  left: coordinate(0),
  top: coordinate(0),
  size: coordinate(1),
  rotate: z.optional(
    z.number().check(
      z.int(),
      z.multipleOf(90, 'Must be a multiple of 90 degrees.'),
      z.gte(-MAX_CROP_ROTATION, `Must be at least -${MAX_CROP_ROTATION}.`),
      z.lte(MAX_CROP_ROTATION, `Must be at most ${MAX_CROP_ROTATION}.`),
    ),
  ),
  flip: z.optional(z.enum([AvatarFlip.horizontal, AvatarFlip.vertical])),
});

/**
 * Body of both avatar uploads: the source image (an http or https address, or the `source` of an
 * uploaded file, `upload:…`) and the crop settings, both required.
 */
export const AvatarUploadSchema = z.strictObject({
  avatar: z.string().check(
    z.maxLength(MAX_AVATAR_URL_LENGTH, `Must be at most ${MAX_AVATAR_URL_LENGTH} characters.`),
    z.url({ protocol: /^(https?|upload)$/, error: 'Must be an absolute http or https URL, or the source of an upload form.' }),
  ),
  crop: AvatarCropSchema,
});
/** A validated avatar upload. */
export type AvatarUpload = z.output<typeof AvatarUploadSchema>;
