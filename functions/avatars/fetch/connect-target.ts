import { isIP } from 'node:net';
import { isPublicAddress } from './address-policy';
import { AddressRefusedError, PortRefusedError, SOURCE_UNREACHABLE, SourceUnresolvableError, UpstreamFailedError } from './errors';
import { addressKey, hostKey, type HostLookup, type ResolvedAddress } from './fetch-settings';

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

/** The ports of the web: the only ones the fetch connects to outside the allow list. */
export const WEB_PORTS: ReadonlySet<number> = new Set([80, 443]);

function defaultPort(url: URL): number {
  return url.protocol === 'https:' ? 443 : 80;
}

/** Whether an allow-list entry (`host:port`) names `port`. */
function allowListNames(port: number, allowHosts: ReadonlySet<string>): boolean {
  return [...allowHosts].some((key) => key.endsWith(`:${port}`));
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

/**
 * The resolver's answers that say the name has no address: NXDOMAIN or no record (node:dns reports
 * both as ENOTFOUND from getaddrinfo, ENODATA from its own resolver). A failure to get an answer at
 * all (EAI_AGAIN, a timeout, SERVFAIL) may be ours, and stays a 502.
 */
const NO_SUCH_NAME: ReadonlySet<unknown> = new Set(['ENOTFOUND', 'ENODATA']);

async function resolve(host: string, lookup: HostLookup, signal: AbortSignal): Promise<readonly ResolvedAddress[]> {
  const family = isIP(host);
  // An IP literal (the URL parser has already turned forms like 2130706433 or 0x7f.1 into one) is
  // its own and only address; the resolver is not asked.
  if (family !== 0) return [{ address: host, family: family === 6 ? 6 : 4 }];
  let addresses: readonly ResolvedAddress[];
  try {
    addresses = await untilAborted(lookup(host), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    if (NO_SUCH_NAME.has((error as { code?: unknown } | null)?.code)) throw new SourceUnresolvableError(host, error);
    throw new UpstreamFailedError(SOURCE_UNREACHABLE, new Error(`The host name ${host} could not be resolved.`, { cause: error }));
  }
  if (addresses.length === 0) throw new SourceUnresolvableError(host);
  return addresses;
}

/**
 * Resolves the host of `url` with `lookup` and checks the destination. The port must be 80 or 443
 * and every address public, unless the URL's `host:port` or the address's `address:port` is on
 * the allow list.
 *
 * @throws PortRefusedError (400) for another port (before a host name is resolved);
 *   AddressRefusedError (400) when an address is refused; SourceUnresolvableError (422) when
 *   the name does not exist or has no address; UpstreamError (502) when the resolver gives no
 *   answer. Rejects with `signal.reason` when `signal` aborts first.
 */
export async function connectTarget(url: URL, allowHosts: ReadonlySet<string>, lookup: HostLookup, signal: AbortSignal): Promise<ConnectTarget> {
  const port = url.port === '' ? defaultPort(url) : Number(url.port);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // A name on another port is refused before it is resolved; an IP literal is judged by the
  // address check below, which refuses a non-public address for itself, whatever its port.
  if (isIP(host) === 0 && !WEB_PORTS.has(port) && !allowListNames(port, allowHosts)) throw new PortRefusedError();
  const addresses = await resolve(host, lookup, signal);
  if (!allowHosts.has(hostKey(url.hostname, port))) checkAddresses(url.hostname, port, addresses, allowHosts);
  return { url, host, port, addresses };
}

/** Throws unless each address is public on a web port, or on the allow list with `port`. */
function checkAddresses(hostname: string, port: number, addresses: readonly ResolvedAddress[], allowHosts: ReadonlySet<string>): void {
  const refused = addresses.find(
    ({ address }) => !(WEB_PORTS.has(port) && isPublicAddress(address)) && !allowHosts.has(addressKey(address, port)),
  );
  if (refused === undefined) return;
  // A public address is refused for its port only; any other address for itself.
  throw isPublicAddress(refused.address) ? new PortRefusedError() : new AddressRefusedError(hostname, refused.address);
}
