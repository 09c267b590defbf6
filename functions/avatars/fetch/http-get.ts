import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ConnectTarget } from './connect-target';
import { SourceRefusedError, UpstreamTimeoutError } from './errors';
import type { ResolvedAddress } from './fetch-settings';

/**
 * One GET request to a checked destination, up to its response headers.
 */

const REQUEST_HEADERS = {
  accept: 'image/webp,image/png,image/jpeg,image/gif;q=0.9,image/*;q=0.5',
  // A compressed body would only be decompressed into something larger than the byte cap measured.
  'accept-encoding': 'identity',
  'user-agent': 'frontend-api-avatar-fetch/1.0',
};

function familyNumber(family: unknown): 4 | 6 | undefined {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return undefined;
}

/**
 * A `lookup` for the socket that answers with the already checked addresses and never asks DNS
 * again: what was checked is what is connected to.
 */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = familyNumber(options.family);
    const usable = family === undefined ? addresses : addresses.filter((address) => address.family === family);
    const first = usable[0];
    if (first === undefined) {
      callback(Object.assign(new Error('No checked address of the requested family.'), { code: 'ENOTFOUND' }), '');
    } else if (options.all) {
      callback(null, usable.map(({ address, family: addressFamily }) => ({ address, family: addressFamily })));
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/**
 * Sends a GET to `target` over a fresh connection (no pooling: a kept-alive socket would skip the
 * address check of the next request) and resolves with the response once its headers arrive.
 * The connection must open within `connectTimeoutMs` (else a 504 `upstream_timeout`) and not be
 * refused (else a 422 `source_refused`); `signal` aborts everything.
 */
export function httpGet(target: ConnectTarget, connectTimeoutMs: number, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = target.url.protocol === 'https:' ? https : http;
    const request = client.request({
      host: target.host,
      port: target.port,
      path: `${target.url.pathname}${target.url.search}`,
      method: 'GET',
      headers: REQUEST_HEADERS,
      agent: false,
      lookup: pinnedLookup(target.addresses),
      signal,
    });
    request.once('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => {
        request.destroy(new UpstreamTimeoutError(`The image source did not accept a connection within ${connectTimeoutMs} ms.`));
      }, connectTimeoutMs);
      const stop = () => clearTimeout(timer);
      socket.once('connect', stop);
      socket.once('close', stop);
    });
    request.once('response', resolve);
    // Refused on every checked address: nothing serves there, which the caller can fix (a 422);
    // any other failure is the source's (a 502, see fetch-image.ts).
    request.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ECONNREFUSED' ? new SourceRefusedError(target.url.hostname, target.port, error) : error));
    request.end();
  });
}
