import { resetConfiguration } from '../../../functions/shared/config/define-config';
import type { ServerResponse } from 'node:http';
import { AddressRefusedError, fetchImage } from '../../../functions/avatars/fetch';
import { ValidationError } from '../../../functions/shared/errors';
import { quadrantImage } from '../../fixtures/images/generate';
import { fetchLimits } from './fetch-limits';
import { installTripwire, type Tripwire } from './connection-tripwire';
import { startServer, type LocalServer } from './local-servers';
import { noDns, rebindingResolver, resolverOf } from './test-resolvers';

/**
 * Where the fetch may and may not go. Every refusal below is asserted to come from the address
 * check (an AddressRefusedError naming the address) while the tripwire guarantees that a broken
 * check could not send a packet anywhere but loopback: it would fail these tests, not leak.
 */

let tripwire: Tripwire;
let image: Buffer;
/** On the allow list: the stand-in for a public image host. */
let allowed: LocalServer;
/** Not on the allow list: the stand-in for an internal service that must stay unreachable. */
let internal: LocalServer;
let redirectTo = '';

function serveImage(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length }).end(image);
}

beforeAll(async () => {
  tripwire = installTripwire();
  image = await quadrantImage(40, 20);
  allowed = await startServer((request, response) => {
    if (request.url === '/redirect') response.writeHead(302, { location: redirectTo }).end();
    else serveImage(response);
  });
  internal = await startServer((_request, response) => serveImage(response));
  // The internal server's port is named by an entry of another host, so that the fetch's port rule
  // (80 and 443, or a port the allow list names) lets requests to it through to the address check.
  process.env.AVATAR_FETCH_ALLOW_HOSTS = `${allowed.hostPort}, avatars.test:${allowed.port}, unrelated.test:${internal.port}`;
  resetConfiguration();
});

afterAll(async () => {
  delete process.env.AVATAR_FETCH_ALLOW_HOSTS;
  resetConfiguration();
  tripwire.restore();
  await Promise.all([allowed.close(), internal.close()]);
});

afterEach(() => {
  expect(tripwire.attempts.splice(0)).toEqual([]);
  expect(internal.takeConnections()).toBe(0);
});

describe('fetchImage: allowed sources', () => {
  it('returns the bytes, content type and URL of a source on the allow list', async () => {
    const result = await fetchImage(`${allowed.origin}/avatar.png?size=large`, fetchLimits(), noDns);
    expect(result.bytes.equals(image)).toBe(true);
    expect(result.contentType).toBe('image/png');
    expect(result.finalUrl).toBe(`${allowed.origin}/avatar.png?size=large`);
  });

  it('lets an allowed host name through to whatever it resolves to, on the allowed port only', async () => {
    const resolver = resolverOf({ 'avatars.test': ['127.0.0.1'] });
    await expect(fetchImage(`http://avatars.test:${allowed.port}/a.png`, fetchLimits(), resolver)).resolves.toMatchObject({
      finalUrl: `http://avatars.test:${allowed.port}/a.png`,
    });
    await expect(fetchImage(`http://avatars.test:${internal.port}/a.png`, fetchLimits(), resolver)).rejects.toBeInstanceOf(
      AddressRefusedError,
    );
  });
});

describe('fetchImage: URLs that are not http or https', () => {
  it.each(['file:///etc/passwd', 'ftp://example.com/a.png', 'data:image/png;base64,iVBORw0KGgo=', 'gopher://example.com/', 'not a url', '/relative.png'])(
    'refuses %s with a 400 naming avatar',
    async (url) => {
      const rejection = fetchImage(url, fetchLimits(), noDns);
      await expect(rejection).rejects.toBeInstanceOf(ValidationError);
      await expect(rejection).rejects.toMatchObject({ status: 400, errors: [{ name: 'avatar' }] });
    },
  );
});

describe('fetchImage: loopback addresses not on the allow list', () => {
  it.each([
    ['the plain address', (port: number) => `http://127.0.0.1:${port}/`],
    ['a decimal integer host', (port: number) => `http://2130706433:${port}/`],
    ['a hexadecimal short form', (port: number) => `http://0x7f.1:${port}/`],
    ['an octal form', (port: number) => `http://0177.0.0.1:${port}/`],
    ['a two-part form', (port: number) => `http://127.1:${port}/`],
    ['IPv6 loopback', (port: number) => `http://[::1]:${port}/`],
    ['IPv4-mapped IPv6', (port: number) => `http://[::ffff:127.0.0.1]:${port}/`],
  ])('refuses %s, and the server behind it sees no connection', async (_form, url) => {
    await expect(fetchImage(url(internal.port), fetchLimits(), noDns)).rejects.toBeInstanceOf(AddressRefusedError);
  });

  it('refuses the IPv4-mapped form of an allowed address: entries match exactly', async () => {
    await expect(fetchImage(`http://[::ffff:127.0.0.1]:${allowed.port}/`, fetchLimits(), noDns)).rejects.toMatchObject({
      name: 'AddressRefusedError',
      address: '::ffff:7f00:1',
    });
  });

  it('refuses a host name that resolves to loopback', async () => {
    const resolver = resolverOf({ localhost: ['127.0.0.1'] });
    await expect(fetchImage(`http://localhost:${internal.port}/`, fetchLimits(), resolver)).rejects.toMatchObject({
      name: 'AddressRefusedError',
      address: '127.0.0.1',
    });
    expect(resolver.asked).toEqual(['localhost']);
  });
});

describe('fetchImage: non-public addresses', () => {
  it.each([
    ['169.254.169.254', '169.254.169.254'],
    ['10.0.0.1', '10.0.0.1'],
    ['172.16.5.4', '172.16.5.4'],
    ['192.168.1.1', '192.168.1.1'],
    ['100.64.0.1', '100.64.0.1'],
    ['0.0.0.0', '0.0.0.0'],
    ['198.18.0.1', '198.18.0.1'],
    ['192.0.2.1', '192.0.2.1'],
    ['224.0.0.1', '224.0.0.1'],
    ['255.255.255.255', '255.255.255.255'],
    ['[fe80::1]', 'fe80::1'],
    ['[fd00::1]', 'fd00::1'],
    ['[::]', '::'],
    ['[64:ff9b::a00:1]', '64:ff9b::a00:1'],
    ['[::ffff:169.254.169.254]', '::ffff:a9fe:a9fe'],
  ])('refuses http://%s/ without connecting', async (host, address) => {
    await expect(fetchImage(`http://${host}/latest/meta-data/`, fetchLimits(), noDns)).rejects.toMatchObject({
      name: 'AddressRefusedError',
      status: 400,
      address,
      errors: [{ name: 'avatar', reason: 'must lead to a public internet address' }],
    });
  });

  it.each([['10.0.0.1'], ['169.254.169.254'], ['::ffff:10.0.0.1'], ['fc00::1'], ['::1']])(
    'refuses a host name that resolves to %s',
    async (address) => {
      const resolver = resolverOf({ 'images.example.com': [address] });
      await expect(fetchImage('https://images.example.com/a.png', fetchLimits(), resolver)).rejects.toMatchObject({
        name: 'AddressRefusedError',
        address,
      });
      expect(resolver.asked).toEqual(['images.example.com']);
    },
  );

  it('refuses a host name when any one of its addresses is non-public', async () => {
    const resolver = resolverOf({ 'mixed.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '10.0.0.1'] });
    await expect(fetchImage('http://mixed.example.com/a.png', fetchLimits(), resolver)).rejects.toMatchObject({
      name: 'AddressRefusedError',
      address: '10.0.0.1',
    });
  });
});

describe('fetchImage: redirects are checked like the first request', () => {
  it.each([
    ['to the internal server by address', () => `${internal.origin}/secret`],
    ['to the internal server through a numeric form', () => `http://2130706433:${internal.port}/secret`],
    ['to the metadata service', () => 'http://169.254.169.254/latest/meta-data/'],
    ['to a host name resolving to a private address', () => 'http://intranet.example.com/'],
  ])('refuses a redirect %s', async (_target, target) => {
    redirectTo = target();
    const resolver = resolverOf({ 'intranet.example.com': ['10.1.2.3'] });
    await expect(fetchImage(`${allowed.origin}/redirect`, fetchLimits(), resolver)).rejects.toBeInstanceOf(AddressRefusedError);
  });
});

describe('fetchImage: DNS rebinding', () => {
  it('connects to the address that was checked, not to a second answer on another loopback address', async () => {
    // 127.0.0.2 is loopback too, so a second lookup would reach this server without leaving the
    // machine. Linux routes all of 127.0.0.0/8 to loopback; macOS only 127.0.0.1 unless aliased,
    // and there the next test (behind the tripwire) covers the same ground.
    const rebound = await startServer((_request, response) => serveImage(response), '127.0.0.2', allowed.port).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRNOTAVAIL') return undefined;
        throw error;
      },
    );
    if (rebound === undefined) {
      console.warn('127.0.0.2 is not a local address here: rebinding to a second loopback server not tested.');
      return;
    }
    try {
      const resolver = rebindingResolver('127.0.0.1', '127.0.0.2');
      const result = await fetchImage(`http://rebind.example.com:${allowed.port}/a.png`, fetchLimits(), resolver);
      expect(result.bytes.equals(image)).toBe(true);
      expect(resolver.calls()).toBe(1);
      expect(rebound.takeConnections()).toBe(0);
    } finally {
      await rebound.close();
    }
  });

  it('never reaches a private address that a second lookup would return', async () => {
    const resolver = rebindingResolver('127.0.0.1', '10.0.0.1');
    const result = await fetchImage(`http://rebind.example.com:${allowed.port}/a.png`, fetchLimits(), resolver);
    expect(result.bytes.equals(image)).toBe(true);
    expect(resolver.calls()).toBe(1);
  });
});
