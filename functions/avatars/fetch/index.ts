/**
 * The SSRF-safe fetch of an avatar's source image.
 */
export { isPublicAddress } from './address-policy';
export { AddressRefusedError, PortRefusedError, SOURCE_UNREACHABLE, SourceRefusedError, SourceUnresolvableError } from './errors';
export { fetchImage, type FetchedImage } from './fetch-image';
export {
  type FetchImageOptions,
  type HostLookup,
  type ResolvedAddress,
} from './fetch-settings';
