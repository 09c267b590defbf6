/**
 * The SSRF-safe fetch of an avatar's source image.
 */
export { isPublicAddress } from './address-policy';
export { AddressRefusedError, PortRefusedError, SOURCE_UNREACHABLE, SourceRefusedError, SourceUnresolvableError } from './errors';
export { fetchImage, MAX_REDIRECTS, type FetchedImage } from './fetch-image';
export { type FetchLimits, type HostLookup, type ResolvedAddress } from './fetch-settings';
