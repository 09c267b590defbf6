import { fetchImage, SOURCE_UNREACHABLE, SourceRefusedError, SourceUnresolvableError, type HostLookup } from '../../../functions/avatars/fetch';
import { fetchLimits } from './fetch-limits';
import { installTripwire, type Tripwire } from './connection-tripwire';
import { freePort } from './local-servers';
import { resolverOf } from './test-resolvers';

/**
 * A source that does not exist or takes no connections is the caller's to fix: a 422 whose `code`
 * says which, never a 502 that would count as the service failing. A source the fetch could not
 * get an answer about (the resolver did not answer) stays a 502. No name below is asked of real
 * DNS: each resolver answers as the system's does (node:dns reports NXDOMAIN as ENOTFOUND), for
 * names under `.invalid`, which RFC 6761 reserves as never existing; the tripwire stops and
 * records any connection to an address that is not loopback.
 */

let tripwire: Tripwire;

beforeAll(() => {
  tripwire = installTripwire();
});

afterAll(() => {
  tripwire.restore();
});

afterEach(() => {
  expect(tripwire.attempts.splice(0)).toEqual([]);
});

/** A resolver that fails as the system resolver does, with the error code `code`. */
function failingResolver(code: string): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string): Promise<never> => {
    asked.push(hostname);
    throw Object.assign(new Error(`getaddrinfo ${code} ${hostname}`), { code, hostname });
  };
  return Object.assign(lookup, { asked });
}

describe('fetchImage: a source that does not exist', () => {
  it('answers a host name that does not exist (NXDOMAIN) with 422 source_unresolvable on avatar', async () => {
    const nxdomain = failingResolver('ENOTFOUND');

    const rejection = fetchImage('https://nonexistent.invalid/a.png', fetchLimits(), nxdomain);

    await expect(rejection).rejects.toBeInstanceOf(SourceUnresolvableError);
    await expect(rejection).rejects.toMatchObject({
      status: 422,
      code: 'source_unresolvable',
      detail: expect.stringContaining('nonexistent.invalid'),
      errors: [{ name: 'avatar', reason: 'must name a host that exists' }],
    });
    expect(nxdomain.asked).toEqual(['nonexistent.invalid']);
  });

  it('answers a host name without any address with 422 source_unresolvable', async () => {
    await expect(fetchImage('https://empty.invalid/a.png', fetchLimits(), resolverOf({}))).rejects.toMatchObject({ status: 422, code: 'source_unresolvable' });
  });

  it('keeps a 502 when the resolver gives no answer at all (EAI_AGAIN): that may be the service\'s own DNS', async () => {
    await expect(fetchImage('https://nonexistent.invalid/a.png', fetchLimits(), failingResolver('EAI_AGAIN'))).rejects.toMatchObject({
      status: 502,
      code: 'upstream_failed',
      detail: SOURCE_UNREACHABLE,
    });
  });
});

describe('fetchImage: a source that takes no connections', () => {
  it('answers a refused connection (a loopback port nobody listens on, allowed) with 422 source_refused on avatar', async () => {
    const port = await freePort();

    const rejection = fetchImage(`http://127.0.0.1:${port}/a.png`, fetchLimits({ allowHosts: [`127.0.0.1:${port}`] }), resolverOf({}));

    await expect(rejection).rejects.toBeInstanceOf(SourceRefusedError);
    await expect(rejection).rejects.toMatchObject({
      status: 422,
      code: 'source_refused',
      detail: `The host 127.0.0.1 refused the connection on port ${port}.`,
      errors: [{ name: 'avatar', reason: 'must lead to a server that accepts connections' }],
    });
  });

  it('answers a refused connection after a name was resolved likewise', async () => {
    const port = await freePort();
    const resolver = resolverOf({ 'closed.test': ['127.0.0.1'] });

    await expect(fetchImage(`http://closed.test:${port}/a.png`, fetchLimits({ allowHosts: [`closed.test:${port}`] }), resolver)).rejects.toMatchObject({
      status: 422,
      code: 'source_refused',
    });
    expect(resolver.asked).toEqual(['closed.test']);
  });
});
