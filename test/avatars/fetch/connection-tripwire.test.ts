import http from 'node:http';
import net from 'node:net';
import { installTripwire } from './connection-tripwire';

/**
 * The tripwire that the fetch tests rely on, checked without any risk: underneath it sits a stub
 * that never connects, so even a broken tripwire sends nothing; the stub must never be reached.
 */

describe('connection tripwire', () => {
  const original = net.Socket.prototype.connect;
  let reachedBelow: string[];

  beforeEach(() => {
    reachedBelow = [];
    net.Socket.prototype.connect = function neverConnect(...args: unknown[]) {
      const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; lookup?: unknown };
      reachedBelow.push(String(first?.host));
      throw new Error('stub: not connecting');
    } as typeof original;
  });

  afterEach(() => {
    net.Socket.prototype.connect = original;
  });

  /** Sends a GET the way the fetch does and returns the error it fails with. */
  function attempt(options: http.RequestOptions & { autoSelectFamily?: boolean }): Promise<Error> {
    return new Promise((resolve) => {
      try {
        http.request({ agent: false, path: '/x', ...options }).on('error', resolve).end();
      } catch (error) {
        resolve(error as Error);
      }
    });
  }

  it.each([
    ['an IPv4 literal', { host: '10.0.0.1', port: 80 }],
    ['an IPv6 literal', { host: 'fd00::1', port: 80 }],
    ['the metadata service', { host: '169.254.169.254', port: 80 }],
  ])('stops a connection to %s and records it', async (_what, options) => {
    const tripwire = installTripwire();
    try {
      const error = await attempt(options);
      expect(error.message).toMatch(/^Tripwire/);
      expect(tripwire.attempts).toEqual([options.host]);
      expect(reachedBelow).toEqual([]);
    } finally {
      tripwire.restore();
    }
  });

  it.each([
    ['one address', false],
    ['all addresses', true],
  ])('stops a host name whose lookup answers a non-loopback address (%s)', async (_form, all) => {
    // The address is checked inside the real connect, after the lookup, so the real connect must
    // run here: the answer 0.0.0.0 is not loopback by the tripwire's rule, yet a connection to it
    // would stay on this machine (Linux routes it to the local host) if the tripwire failed.
    const lookup: net.LookupFunction = (_hostname, _options, callback) => {
      if (all) callback(null, [{ address: '0.0.0.0', family: 4 }]);
      else callback(null, '0.0.0.0', 4);
    };
    net.Socket.prototype.connect = original;
    const tripwire = installTripwire();
    try {
      const error = await attempt({ host: 'example.test', port: 9, lookup, autoSelectFamily: all });
      expect(error.message).toMatch(/^Tripwire/);
      expect(tripwire.attempts).toEqual(['example.test -> 0.0.0.0']);
    } finally {
      tripwire.restore();
    }
  });

  it('lets loopback connections through', async () => {
    const tripwire = installTripwire();
    try {
      await attempt({ host: '127.0.0.1', port: 9 });
      expect(tripwire.attempts).toEqual([]);
      expect(reachedBelow).toEqual(['127.0.0.1']);
    } finally {
      tripwire.restore();
    }
  });
});
