import { UpstreamError, ValidationError } from '../../shared/errors';

/**
 * The answers of the image fetch, one class each so that callers (and the metrics of failed
 * uploads) can tell them apart: a refused or malformed address is a 400 on the `avatar` field
 * (asking again will not help); the source's failures are 502 / 504.
 */

/** 400: the `avatar` URL is not an absolute http or https URL. */
export class UnsupportedUrlError extends ValidationError {
  public constructor() {
    super([{ name: 'avatar', reason: 'must be an absolute http or https URL' }]);
    this.name = 'UnsupportedUrlError';
  }
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

/**
 * 400: the `avatar` URL names a port other than 80 and 443 (and no allow-list entry names it).
 * Refused before any name is resolved or connection made, so the fetch cannot probe the ports of
 * a host on anyone's behalf.
 */
export class PortRefusedError extends ValidationError {
  public constructor() {
    super([{ name: 'avatar', reason: 'must use port 80 or 443' }], 'Images are fetched from ports 80 and 443 only.');
    this.name = 'PortRefusedError';
  }
}

/**
 * What the client learns when the source cannot be reached, whatever the reason: an unresolvable
 * name, a name without addresses, a refused or reset connection all read the same, so the fetch
 * tells a port scanner nothing. The reason is kept as the error's cause, for the logs.
 */
export const SOURCE_UNREACHABLE = 'The image source could not be reached or broke off the transfer.';

/** 502 `upstream_failed`: the source could not be reached or did not deliver the image. */
export class UpstreamFailedError extends UpstreamError {
  public constructor(detail: string, cause?: unknown) {
    super('upstream_failed', detail, cause);
    this.name = 'UpstreamFailedError';
  }
}

/** 502 `too_many_redirects`: the source redirected more often than allowed. */
export class TooManyRedirectsError extends UpstreamError {
  public constructor(maxRedirects: number) {
    super('too_many_redirects', `The image source redirected more than ${maxRedirects} times.`);
    this.name = 'TooManyRedirectsError';
  }
}

/** 504 `upstream_timeout`: the source did not connect or deliver in time. */
export class UpstreamTimeoutError extends UpstreamError {
  public constructor(detail: string) {
    super('upstream_timeout', detail);
    this.name = 'UpstreamTimeoutError';
  }
}
