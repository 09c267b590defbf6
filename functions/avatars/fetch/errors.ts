import { UpstreamError, ValidationError } from '../../shared/errors';

/**
 * The answers of the image fetch besides the shared ones: a refused address is a 400 on the
 * `avatar` field (asking again will not help); the source's failures are 502 / 504.
 */

/** 400: the `avatar` URL is not an absolute http or https URL. */
export function unsupportedUrl(): ValidationError {
  return new ValidationError([{ name: 'avatar', reason: 'must be an absolute http or https URL' }]);
}

/**
 * 400: a connection (the first or one after a redirect) would go to a non-public address. The
 * refused address is kept for the logs only: the client learns that, not where.
 */
export class AddressRefusedError extends ValidationError {
  /** The refused address, for the logs. */
  public readonly address: string;

  public constructor(host: string, address: string) {
    super(
      [{ name: 'avatar', reason: 'must lead to a public internet address' }],
      `The image address leads (through ${host}) to a non-public network address, which is never fetched.`,
    );
    this.name = 'AddressRefusedError';
    this.address = address;
  }
}

/** 502 `upstream_failed`: the source could not be reached or did not deliver the image. */
export function upstreamFailed(detail: string, cause?: unknown): UpstreamError {
  return new UpstreamError(502, 'upstream_failed', detail, cause);
}

/** 502 `too_many_redirects`: the source redirected more often than allowed. */
export function tooManyRedirects(maxRedirects: number): UpstreamError {
  return new UpstreamError(502, 'too_many_redirects', `The image source redirected more than ${maxRedirects} times.`);
}

/** 504 `upstream_timeout`: the source did not connect or deliver in time. */
export function upstreamTimeout(detail: string): UpstreamError {
  return new UpstreamError(504, 'upstream_timeout', detail);
}
