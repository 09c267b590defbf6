import { fetchImage, PortRefusedError } from '../../../functions/avatars/fetch';
import { quadrantImage } from '../../fixtures/images/generate';
import { fetchLimits } from './fetch-limits';
import { installTripwire, type Tripwire } from './connection-tripwire';
import { startServer, type LocalServer } from './local-servers';
import { noDns, resolverOf } from './test-resolvers';

/**
 * The fetch is no port scanner: it connects to ports 80 and 443 only (plus the ports of the allow
 * list), refusing any other before a name is resolved or a connection made, so that what it says
 * of a source it cannot reach (fetch-image-unreachable.test.ts) is about a web port only.
 * Public addresses below are refused before any connection; the tripwire would stop and record one.
 */

let tripwire: Tripwire;
let allowed: LocalServer;

beforeAll(async () => {
  tripwire = installTripwire();
  const image = await quadrantImage(8, 8);
  allowed = await startServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(image));
});

afterAll(async () => {
  tripwire.restore();
  await allowed.close();
});

afterEach(() => {
  expect(tripwire.attempts.splice(0)).toEqual([]);
});

describe('fetchImage: ports', () => {
  it.each([
    ['a public address', 'http://93.184.215.14:8080/a.png'],
    ['a public IPv6 address', 'http://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:22/'],
    ['https on a mail port', 'https://93.184.215.14:25/'],
    ['the highest port', 'http://93.184.215.14:65535/'],
  ])('refuses %s on a port other than 80 and 443 with a 400 naming avatar, connecting nowhere', async (_, url) => {
    await expect(fetchImage(url, fetchLimits({ allowHosts: [allowed.hostPort] }), noDns)).rejects.toMatchObject({
      name: 'PortRefusedError',
      status: 400,
      errors: [{ name: 'avatar', reason: 'must use port 80 or 443' }],
    });
  });

  it('refuses a host name on another port without resolving it', async () => {
    const resolver = resolverOf({ 'images.example.com': ['93.184.215.14'] });

    await expect(fetchImage('http://images.example.com:8443/a.png', fetchLimits({ allowHosts: [allowed.hostPort] }), resolver)).rejects.toBeInstanceOf(
      PortRefusedError,
    );
    expect(resolver.asked).toEqual([]);
  });

  it('refuses a public address on a port the allow list names for another host', async () => {
    const resolver = resolverOf({ 'images.example.com': ['93.184.215.14'] });

    const rejection = fetchImage(`http://images.example.com:${allowed.port}/a.png`, fetchLimits({ allowHosts: [allowed.hostPort] }), resolver);

    await expect(rejection).rejects.toBeInstanceOf(PortRefusedError);
  });

  it('refuses a redirect to another port like a first request', async () => {
    const redirecting = await startServer((_request, response) => response.writeHead(302, { location: 'http://93.184.215.14:8080/a.png' }).end());
    try {
      await expect(fetchImage(`${redirecting.origin}/`, fetchLimits({ allowHosts: [redirecting.hostPort] }), noDns)).rejects.toBeInstanceOf(PortRefusedError);
    } finally {
      await redirecting.close();
    }
  });

  it('reaches a port the allow list names for that host', async () => {
    await expect(fetchImage(`${allowed.origin}/a.png`, fetchLimits({ allowHosts: [allowed.hostPort] }), noDns)).resolves.toMatchObject({
      finalUrl: `${allowed.origin}/a.png`,
    });
  });
});
