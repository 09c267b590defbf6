import { isIP } from 'node:net';
import { isPublicAddress } from './address-policy';
import { AddressRefusedError, UpstreamFailedError } from './errors';
import { addressKey, hostKey, type FetchSettings, type ResolvedAddress } from './fetch-settings';

/**
 * Where one connection of the fetch goes: the host name is resolved exactly once, every address
 * is checked, and the connection is then made to those checked addresses only (see
 * `pinnedLookup` in http-get.ts), so a DNS answer that changes between check and use (DNS
 * rebinding) cannot redirect it.
 */

/** The checked destination of one request. */
export interface ConnectTarget {
  readonly url: URL;
  /** Host name or IP address to connect to, without IPv6 brackets; also the TLS server name. */
  readonly host: string;
  readonly port: number;
  /** The addresses that were checked; the only ones the connection may use. */
  readonly addresses: readonly ResolvedAddress[];
}

function defaultPort(url: URL): number {
  return url.protocol === 'https:' ? 443 : 80;
}

/** `promise`, or a rejection with the abort reason as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function resolve(host: string, settings: FetchSettings, signal: AbortSignal): Promise<readonly ResolvedAddress[]> {
  const family = isIP(host);
  // An IP literal (the URL parser has already turned forms like 2130706433 or 0x7f.1 into one) is
  // its own and only address; the resolver is not asked.
  if (family !== 0) return [{ address: host, family: family === 6 ? 6 : 4 }];
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await untilAborted(settings.lookup(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new UpstreamFailedError(`The host name ${host} of the image address could not be resolved.`, error);
  }
  if (addresses.length === 0) throw new UpstreamFailedError(`The host name ${host} of the image address has no address.`);
  return addresses;
}

/**
 * Resolves and checks the destination of `url`. Every address must be public, unless the URL's
 * `host:port` or the address's `address:port` is on the allow list.
 *
 * @throws AddressRefusedError (400) when an address is refused; UpstreamError (502) when the
 *   name cannot be resolved. Rejects with `signal.reason` when `signal` aborts first.
 */
export async function connectTarget(url: URL, settings: FetchSettings, signal: AbortSignal): Promise<ConnectTarget> {
  const port = url.port === '' ? defaultPort(url) : Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = await resolve(host, settings, signal);
  if (!settings.allowHosts.has(hostKey(url.hostname, port))) {
    const refused = addresses.find(
      ({ address }) => !isPublicAddress(address) && !settings.allowHosts.has(addressKey(address, port)),
    );
    if (refused !== undefined) throw new AddressRefusedError(url.hostname, refused.address);
  }
  return { url, host, port, addresses };
}
