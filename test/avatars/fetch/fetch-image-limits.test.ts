import { resetConfiguration } from '../../../functions/shared/config/define-config';
import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fetchImage, type HostLookup } from '../../../functions/avatars/fetch';
import { PayloadTooLargeError, UpstreamError } from '../../../functions/shared/errors';
import { fetchLimits } from './fetch-limits';
import { installTripwire, type Tripwire } from './connection-tripwire';
import { startServer, type LocalServer } from './local-servers';
import { noDns } from './test-resolvers';

/**
 * What the fetch does when the source misbehaves: too many redirects, too many bytes, too slow,
 * failing. All sources are loopback servers on the allow list. Sources that do not exist or take
 * no connections: fetch-image-unreachable.test.ts.
 */

const MiB = 1024 * 1024;

let tripwire: Tripwire;
let source: LocalServer;
/** Responses the server left unfinished, by path: proof that the client stopped reading. */
const unfinished: string[] = [];

/** Writes `total` bytes in 64 KiB chunks, respecting back-pressure. */
function stream(response: ServerResponse, total: number): void {
  let sent = 0;
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const writeMore = (): void => {
    while (sent < total) {
      sent += chunk.length;
      if (!response.write(chunk)) {
        response.once('drain', writeMore);
        return;
      }
    }
    response.end();
  };
  writeMore();
}

const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  '/image': (_request, response) => response.end('image bytes'),
  '/huge-chunked': (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    // Far past the cap: loopback socket buffers can hold megabytes, so a body only a little over
    // the cap could be written out whole although the client stopped reading at the cap.
    stream(response, 64 * MiB);
  },
  '/huge-declared': (_request, response) => {
    // Declares 12 MiB and then sends nothing: only the declaration can have caused the refusal.
    response.writeHead(200, { 'content-length': 12 * MiB }).flushHeaders();
  },
  '/endless': (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' });
    const ticker = setInterval(() => response.write('.'), 20);
    response.on('close', () => clearInterval(ticker));
  },
  '/silent': () => undefined,
  '/missing': (_request, response) => response.writeHead(404).end('not found'),
  '/failing': (_request, response) => response.writeHead(500).end('oops'),
  '/reset': (request, response) => {
    response.writeHead(200, { 'content-length': 1000 });
    response.write('partial');
    setTimeout(() => request.socket.destroy(), 20);
  },
  '/to-file': (_request, response) => response.writeHead(302, { location: 'file:///etc/passwd' }).end(),
  '/no-location': (_request, response) => response.writeHead(301).end(),
};

beforeAll(async () => {
  tripwire = installTripwire();
  source = await startServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    response.on('close', () => {
      if (!response.writableFinished) unfinished.push(url.pathname);
    });
    const hops = Number(url.searchParams.get('hops') ?? '0');
    if (url.pathname === '/chain') {
      response.writeHead(hops > 0 ? 307 : 200, hops > 0 ? { location: `/chain?hops=${hops - 1}` } : {}).end('end of chain');
      return;
    }
    (routes[url.pathname] ?? routes['/missing']!)(request, response);
  });
  process.env.AVATAR_FETCH_ALLOW_HOSTS = source.hostPort;
  resetConfiguration();
});

afterAll(async () => {
  delete process.env.AVATAR_FETCH_ALLOW_HOSTS;
  resetConfiguration();
  tripwire.restore();
  await source.close();
});

afterEach(() => {
  expect(tripwire.attempts.splice(0)).toEqual([]);
});

describe('fetchImage: redirects', () => {
  it('follows up to three redirects and reports the final URL', async () => {
    const result = await fetchImage(`${source.origin}/chain?hops=3`, fetchLimits(), noDns);
    expect(result.bytes.toString()).toBe('end of chain');
    expect(result.finalUrl).toBe(`${source.origin}/chain?hops=0`);
  });

  it('answers a fourth redirect with 502 too_many_redirects', async () => {
    await expect(fetchImage(`${source.origin}/chain?hops=4`, fetchLimits(), noDns)).rejects.toMatchObject({
      status: 502,
      code: 'too_many_redirects',
    });
  });

  it.each(['/to-file', '/no-location'])('answers a redirect (%s) to no http(s) address with 502', async (path) => {
    await expect(fetchImage(`${source.origin}${path}`, fetchLimits(), noDns)).rejects.toMatchObject({ status: 502, code: 'upstream_failed' });
  });
});

describe('fetchImage: byte cap', () => {
  it('cuts a 64 MiB body off at the default 10 MiB cap with a 413', async () => {
    const rejection = fetchImage(`${source.origin}/huge-chunked`, fetchLimits(), noDns);
    await expect(rejection).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(rejection).rejects.toMatchObject({ status: 413, errors: [{ name: 'avatar' }] });
    // The server sees the connection close a moment after the client gives up: on a busy machine
    // more than any fixed pause, so wait for it, up to 5 s.
    for (const deadline = Date.now() + 5000; !unfinished.includes('/huge-chunked') && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(unfinished).toContain('/huge-chunked');
  });

  it('refuses a declared Content-Length over the cap before any body byte', async () => {
    const started = performance.now();
    await expect(fetchImage(`${source.origin}/huge-declared`, fetchLimits(), noDns)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('takes the cap from AVATAR_MAX_BYTES', async () => {
    process.env.AVATAR_MAX_BYTES = '5';
    resetConfiguration();
    try {
      await expect(fetchImage(`${source.origin}/image`, fetchLimits(), noDns)).rejects.toMatchObject({ status: 413 });
    } finally {
      delete process.env.AVATAR_MAX_BYTES;
      resetConfiguration();
    }
    await expect(fetchImage(`${source.origin}/image`, fetchLimits(), noDns)).resolves.toMatchObject({ bytes: Buffer.from('image bytes') });
  });
});

describe('fetchImage: timeouts', () => {
  it('cuts a body that never ends at the total timeout with a 504', async () => {
    const started = performance.now();
    await expect(fetchImage(`${source.origin}/endless`, fetchLimits({ totalTimeoutMs: 300 }), noDns)).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
  });

  it('gives up on a source that accepts the connection but never answers', async () => {
    const started = performance.now();
    await expect(fetchImage(`${source.origin}/silent`, fetchLimits({ totalTimeoutMs: 300 }), noDns)).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('counts a DNS answer that never comes against the total timeout', async () => {
    const silentDns: HostLookup = () => new Promise(() => undefined);
    await expect(fetchImage('http://slow-dns.example.com/a.png', fetchLimits({ totalTimeoutMs: 200 }), silentDns)).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
  });

  it('takes the total timeout from AVATAR_FETCH_TIMEOUT_MS', async () => {
    process.env.AVATAR_FETCH_TIMEOUT_MS = '200';
    resetConfiguration();
    try {
      await expect(fetchImage(`${source.origin}/silent`, fetchLimits(), noDns)).rejects.toMatchObject({ status: 504 });
    } finally {
      delete process.env.AVATAR_FETCH_TIMEOUT_MS;
      resetConfiguration();
    }
  });

  it('gives up on a connection that does not open within the connect timeout', async () => {
    // A hanging TCP handshake cannot be produced on loopback on demand: this socket simply never
    // connects (the one fault injected by hand in these tests).
    const connect = net.Socket.prototype.connect;
    net.Socket.prototype.connect = function hang(this: net.Socket & { connecting: boolean }) {
      this.connecting = true;
      return this;
    } as typeof connect;
    try {
      const started = performance.now();
      await expect(
        fetchImage(`${source.origin}/image`, fetchLimits({ connectTimeoutMs: 150, totalTimeoutMs: 5000 }), noDns),
      ).rejects.toMatchObject({ status: 504, code: 'upstream_timeout', detail: expect.stringContaining('connection') });
      expect(performance.now() - started).toBeLessThan(1000);
    } finally {
      net.Socket.prototype.connect = connect;
    }
  });
});

describe('fetchImage: failing sources', () => {
  it.each(['/missing', '/failing'])('answers a non-2xx status (%s) with 502 upstream_failed', async (path) => {
    const rejection = fetchImage(`${source.origin}${path}`, fetchLimits(), noDns);
    await expect(rejection).rejects.toBeInstanceOf(UpstreamError);
    await expect(rejection).rejects.toMatchObject({ status: 502, code: 'upstream_failed' });
  });

  it('answers a connection reset in the middle of the body with 502 upstream_failed', async () => {
    await expect(fetchImage(`${source.origin}/reset`, fetchLimits(), noDns)).rejects.toMatchObject({ status: 502, code: 'upstream_failed' });
  });
});
