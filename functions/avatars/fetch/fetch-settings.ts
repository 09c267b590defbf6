import { lookup as systemLookup } from 'node:dns/promises';
import { avatarConfig } from '../avatar-config';

/**
 * Settings of the image fetch: limits, timeouts, the DNS resolver and the allow list, from the
 * caller's options or else the avatar configuration.
 */

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all of its addresses. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Options of {@link fetchImage}; each falls back to the avatar configuration (avatar-config.ts). */
export interface FetchImageOptions {
  /** DNS resolver (default: the system resolver, every address). Tests inject answers here. */
  readonly lookup?: HostLookup;
  /** `host:port` entries that may be reached although not public (`AVATAR_FETCH_ALLOW_HOSTS`). */
  readonly allowHosts?: readonly string[];
  /** Largest body in bytes (`AVATAR_MAX_BYTES`, default 10 MiB). */
  readonly maxBytes?: number;
  /** Time allowed for each TCP connection to open (`AVATAR_FETCH_CONNECT_TIMEOUT_MS`, default 3 s). */
  readonly connectTimeoutMs?: number;
  /** Time allowed for the whole fetch, redirects and body included (`AVATAR_FETCH_TIMEOUT_MS`, default 10 s). */
  readonly totalTimeoutMs?: number;
  /** Redirects followed at most (default 3). */
  readonly maxRedirects?: number;
}

/** The options with every default applied. */
export interface FetchSettings {
  readonly lookup: HostLookup;
  /** Normalised `host:port` keys, see {@link hostKey}. */
  readonly allowHosts: ReadonlySet<string>;
  readonly maxBytes: number;
  readonly connectTimeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly maxRedirects: number;
}

/** The system resolver, asked for every address in the order it gives them. */
export const systemHostLookup: HostLookup = async (hostname) => {
  const answers = await systemLookup(hostname, { all: true, verbatim: true });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/**
 * The key under which a host and port are compared with the allow list: the host as the WHATWG
 * URL parser writes it (lower case, IPv4 in dotted decimal, IPv6 compressed and in brackets).
 */
export function hostKey(host: string, port: number): string {
  return `${new URL(`http://${host}/`).hostname}:${port}`;
}

/** The key of a resolved address and port; an address the URL parser refuses keeps its own spelling. */
export function addressKey(address: string, port: number): string {
  const host = address.includes(':') ? `[${address}]` : address;
  return URL.canParse(`http://${host}/`) ? hostKey(host, port) : `${address}:${port}`;
}

/** Whether `host` is a host and nothing more: no scheme, credentials, port or path. */
function isBareHost(host: string): boolean {
  if (host === '' || !URL.canParse(`http://${host}/`)) return false;
  const url = new URL(`http://${host}/`);
  return url.pathname === '/' && url.port === '' && url.username === '' && url.password === '';
}

/** Parses `host:port` allow-list entries; a malformed entry is a configuration error and throws. */
export function parseAllowHosts(entries: readonly string[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const raw of entries.map((entry) => entry.trim()).filter((entry) => entry !== '')) {
    const match = /^(.+):(\d{1,5})$/.exec(raw);
    const host = match?.[1] ?? '';
    const port = Number(match?.[2]);
    if (!isBareHost(host) || port < 1 || port > 65535) {
      throw new Error(`AVATAR_FETCH_ALLOW_HOSTS: "${raw}" is not a host:port entry.`);
    }
    keys.add(hostKey(host, port));
  }
  return keys;
}

/** Applies the avatar configuration to what `options` leaves open. */
export function fetchSettings(options: FetchImageOptions = {}): FetchSettings {
  const configured = avatarConfig().fetch;
  return {
    lookup: options.lookup ?? systemHostLookup,
    allowHosts: options.allowHosts === undefined ? configured.allowHosts : parseAllowHosts(options.allowHosts),
    maxBytes: options.maxBytes ?? configured.maxBytes,
    connectTimeoutMs: options.connectTimeoutMs ?? configured.connectTimeoutMs,
    totalTimeoutMs: options.totalTimeoutMs ?? configured.totalTimeoutMs,
    maxRedirects: options.maxRedirects ?? 3,
  };
}
