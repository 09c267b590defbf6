import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import net from 'node:net';

/**
 * A safety net for the fetch tests: while installed, any socket this process tries to open to an
 * address outside 127.0.0.0/8 and ::1 is stopped before a packet leaves, and recorded. A fetch
 * guard that let a refused address through therefore fails its test (with a recorded attempt)
 * instead of sending traffic. Tests assert that nothing was recorded.
 */

/** An installed tripwire. */
export interface Tripwire {
  /** `host` or `host -> address` of every stopped attempt. */
  readonly attempts: string[];
  /** Puts the original `Socket.prototype.connect` back. */
  restore(): void;
}

type Lookup = NonNullable<net.TcpSocketConnectOpts['lookup']>;

function isLoopback(address: string): boolean {
  return /^127\./.test(address) || /^::ffff:127\./i.test(address) || address === '::1';
}

function connectOptions(args: unknown[]): Partial<net.TcpSocketConnectOpts & net.IpcSocketConnectOpts> {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  if (typeof first === 'object' && first !== null) return first as net.TcpSocketConnectOpts;
  return { port: Number(first), host: typeof args[1] === 'string' ? args[1] : 'localhost' };
}

/** Wraps a lookup so that it can only ever answer with loopback addresses. */
function guardedLookup(host: string, lookup: Lookup, attempts: string[]): Lookup {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      const addresses = Array.isArray(address) ? (address as LookupAddress[]).map((entry) => entry.address) : [address];
      const stray = addresses.filter((entry) => typeof entry === 'string' && entry !== '' && !isLoopback(entry));
      if (error === null && stray.length > 0) {
        attempts.push(`${host} -> ${stray.join(', ')}`);
        callback(new Error(`Tripwire: refused to connect to ${stray.join(', ')}`), '', 0);
        return;
      }
      callback(error, address as string, family);
    });
  };
}

/** Installs the tripwire on `net.Socket.prototype.connect`. */
export function installTripwire(): Tripwire {
  const original = net.Socket.prototype.connect;
  const attempts: string[] = [];
  net.Socket.prototype.connect = function connect(this: net.Socket, ...args: unknown[]) {
    const options = connectOptions(args);
    // Fail closed: only a real IPC path (a non-empty string) skips the check; HTTP sets `path: null`.
    if (typeof options.path !== 'string' || options.path === '') {
      const host = options.host ?? 'localhost';
      if (net.isIP(host) !== 0 && !isLoopback(host)) {
        attempts.push(host);
        throw new Error(`Tripwire: refused to connect to ${host}`);
      }
      if (net.isIP(host) === 0) options.lookup = guardedLookup(host, options.lookup ?? (systemLookup as Lookup), attempts);
    }
    return (original as (...rest: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}
