import { UnprocessableError, UpstreamError, ValidationError } from '../../shared/errors';

/**
 * The answers of the image fetch, one class each so that callers (and the metrics of failed
 * uploads) can tell them apart: a refused or malformed address is a 400 on the `avatar` field
 * (asking again will not help); a source that does not exist or takes no connections is a 422
 * (the caller named it); a source that answers badly or too slowly is a 502 / 504.
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
 * What the client learns when the source cannot be reached for another reason than the two named
 * below (a DNS failure that is not a "no such name", an unreachable network, a reset connection);
 * the reason is kept as the error's cause, for the logs. An earlier design made every reason read
 * alike so that the fetch told a port scanner nothing; since only ports 80 and 443 of public
 * addresses are ever connected to, naming "no such host" and "connection refused" tells nothing a
 * scanner could not learn by itself, and tells a user what to fix.
 */
export const SOURCE_UNREACHABLE = 'The image source could not be reached or broke off the transfer.';

/** 422 `source_unresolvable`: the host name of the address does not exist (NXDOMAIN) or has no address. */
export class SourceUnresolvableError extends UnprocessableError {
  public constructor(host: string, cause?: unknown) {
    super('source_unresolvable', `The host name ${host} does not exist or has no address.`, [{ name: 'avatar', reason: 'must name a host that exists' }], cause);
    this.name = 'SourceUnresolvableError';
  }
}

/** 422 `source_refused`: the source's host refused the connection (nothing listens on the port). */
export class SourceRefusedError extends UnprocessableError {
  public constructor(host: string, port: number, cause?: unknown) {
    super('source_refused', `The host ${host} refused the connection on port ${port}.`, [{ name: 'avatar', reason: 'must lead to a server that accepts connections' }], cause);
    this.name = 'SourceRefusedError';
  }
}

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
