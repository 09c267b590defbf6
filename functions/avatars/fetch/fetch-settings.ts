/**
 * Settings of the image fetch: its limits and the allow list. The avatar configuration
 * (avatar-config.ts) reads the limits; this module knows nothing of it. The DNS resolver is in
 * fetch-image.ts, so that the functions that only read the configuration do not load `node:dns`.
 */

/** One address a host name resolves to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to all of its addresses. */
export type HostLookup = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** The limits of one fetch, as the avatar configuration sets them. */
export interface FetchLimits {
  /**
   * Normalised `host:port` keys (see {@link hostKey}, {@link parseAllowHosts}) that may be reached
   * although not public (`AVATAR_FETCH_ALLOW_HOSTS`: local development and tests only).
   */
  readonly allowHosts: ReadonlySet<string>;
  /** Largest body in bytes (`AVATAR_MAX_BYTES`). */
  readonly maxBytes: number;
  /** Time allowed for each TCP connection to open (`AVATAR_FETCH_CONNECT_TIMEOUT_MS`). */
  readonly connectTimeoutMs: number;
  /** Time allowed for the whole fetch, redirects and body included (`AVATAR_FETCH_TIMEOUT_MS`). */
  readonly totalTimeoutMs: number;
}

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
