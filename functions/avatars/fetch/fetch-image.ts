import { lookup as systemLookup } from 'node:dns/promises';
import { ProblemError } from '../../shared/errors';
import { connectTarget } from './connect-target';
import { SOURCE_UNREACHABLE, TooManyRedirectsError, UnsupportedUrlError, UpstreamFailedError, UpstreamTimeoutError } from './errors';
import type { FetchLimits, HostLookup } from './fetch-settings';
import { httpGet } from './http-get';
import { readBody } from './read-body';

/**
 * The SSRF-safe fetch of an avatar's source image.
 */

/** The system resolver, asked for every address in the order it gives them. */
export const systemHostLookup: HostLookup = async (hostname) => {
  const answers = await systemLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** What the source delivered. */
export interface FetchedImage {
  readonly bytes: Buffer;
  /** The source's `Content-Type`, if any: informative only, the image pipeline sniffs the bytes. */
  readonly contentType?: string;
  /** The URL that finally answered, after redirects. */
  readonly finalUrl: string;
}

const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Redirects followed at most (DESIGN.md section 6). */
export const MAX_REDIRECTS = 3;

function isHttpUrl(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

function sourceUrl(raw: string): URL {
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url === undefined || !isHttpUrl(url)) throw new UnsupportedUrlError();
  return url;
}

function redirectTarget(from: URL, location: string | undefined): URL {
  const url = location !== undefined && URL.canParse(location, from.href) ? new URL(location, from) : undefined;
  if (url === undefined || !isHttpUrl(url)) {
    throw new UpstreamFailedError('The image source redirected to a missing or unsupported (not http or https) address.');
  }
  return url;
}

function asProblem(error: unknown, deadline: AbortSignal): ProblemError {
  if (error instanceof ProblemError) return error;
  if (deadline.aborted && deadline.reason instanceof ProblemError) return deadline.reason;
  return new UpstreamFailedError(SOURCE_UNREACHABLE, error);
}

/**
 * Fetches the image at `url` within `limits` without letting the request reach a non-public
 * network, resolving host names with `lookup` (the system resolver; tests inject answers).
 *
 * - Only `http:` and `https:` URLs on ports 80 and 443; at most {@link MAX_REDIRECTS} redirects,
 *   each checked like the first request.
 * - Every connection's host name is resolved once and every address checked (see
 *   address-policy.ts); the connection then goes to a checked address only. The URL parser has
 *   already normalised numeric host forms such as `2130706433` or `0x7f.1` to `127.0.0.1`.
 * - `AVATAR_FETCH_ALLOW_HOSTS` entries (`host:port`, matched against the URL's host or a resolved
 *   address) are the only way past the address check: for local development and tests.
 * - The connect timeout applies to each connection, the total timeout to everything, body included.
 *
 * @throws ValidationError (400 `validation_failed`, field `avatar`) for a URL that is not http(s);
 *   {@link PortRefusedError} and {@link AddressRefusedError} (400s of the same shape) when a
 *   connection would reach another port or a non-public address.
 * @throws PayloadTooLargeError (413 `payload_too_large`) for a body over `maxBytes`.
 * @throws SourceUnresolvableError (422 `source_unresolvable`) for a host name that does not exist
 *   or has no address; SourceRefusedError (422 `source_refused`) when the connection is refused.
 * @throws UpstreamError 502 `upstream_failed` (no DNS answer, unreachable network, reset
 *   connection: {@link SOURCE_UNREACHABLE}; non-2xx answer, bad redirect), 502
 *   `too_many_redirects`, 504 `upstream_timeout`.
 */
export async function fetchImage(url: string, limits: FetchLimits, lookup: HostLookup = systemHostLookup): Promise<FetchedImage> {
  let current = sourceUrl(url);
  const deadline = new AbortController();
  const timer = setTimeout(() => {
    deadline.abort(new UpstreamTimeoutError(`The image source did not deliver the image within ${limits.totalTimeoutMs} ms.`));
  }, limits.totalTimeoutMs);
  try {
    for (let redirects = 0; ; redirects += 1) {
      const target = await connectTarget(current, limits.allowHosts, lookup, deadline.signal);
      const response = await httpGet(target, limits.connectTimeoutMs, deadline.signal);
      const status = response.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        response.destroy();
        if (redirects >= MAX_REDIRECTS) throw new TooManyRedirectsError(MAX_REDIRECTS);
        current = redirectTarget(current, response.headers.location);
      } else if (status < 200 || status > 299) {
        response.destroy();
        throw new UpstreamFailedError(`The image source answered HTTP ${status}.`);
      } else {
        const bytes = await readBody(response, limits.maxBytes);
        const contentType = response.headers['content-type'];
        return { bytes, finalUrl: current.href, ...(contentType === undefined ? {} : { contentType }) };
      }
    }
  } catch (error) {
    throw asProblem(error, deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}
