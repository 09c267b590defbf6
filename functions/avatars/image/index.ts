/**
 * The avatar image pipeline: crop settings, their semantics, and the crop itself.
 */
export {
  AVATAR_CROP_DESCRIPTION,
  AvatarFlip,
  normaliseCrop,
  type AvatarCrop,
  type NormalisedCrop,
  type QuarterTurns,
} from './crop-spec';
export {
  AVATAR_MAX_SIDE,
  cropAvatar,
  type CroppedAvatar,
  type ImageLimits,
} from './crop-avatar';
export { ImageFormat, sniffImage, type SniffedImage } from './sniff-image';
