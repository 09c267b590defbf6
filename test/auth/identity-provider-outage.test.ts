import { jest } from '@jest/globals';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { resetConfiguration as resetAuthorizer } from '../../functions/shared/config/define-config';
import { logger } from '../../functions/shared/logger';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * An identity provider outage: when the issuer's JWKS cannot be fetched, a caller with a perfectly
 * good token must get the 503 problem with Retry-After (retry shortly), not a 401 (which tells a
 * frontend to throw its token away and sign in again), and the authorizer logs why. Tokens that are
 * bad in themselves stay 401. The issuer is a stand-in on 127.0.0.1.
 */

const ISSUER = 'https://outage.example.test/';
const AUDIENCE = 'frontend-web';
const VARIABLES = ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'AUTH_JWKS_COOLDOWN_MS'] as const;
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

const servers: Server[] = [];
let key: Awaited<ReturnType<typeof issuerKey>>;

async function issuerKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

function sign(subject: string, kid = key.kid): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid }).setSubject(subject).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(key.privateKey);
}

/** A JWKS endpoint on loopback answering with `listener`; returns its URL. */
async function jwksEndpoint(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
}

/** A URL on loopback where nothing listens any more. */
async function closedEndpoint(): Promise<string> {
  const url = await jwksEndpoint(() => undefined);
  const server = servers.pop() as Server;
  await new Promise((resolve) => server.close(resolve));
  return url;
}

const serveKeys: RequestListener = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key.publicJwk] }));
};

/** Trusts the issuer whose keys are at `jwksUrl`, with nothing fetched yet. */
function trustIssuerAt(jwksUrl: string): void {
  Object.assign(process.env, { AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE, AUTH_JWKS_URL: jwksUrl, AUTH_JWKS_COOLDOWN_MS: '0' });
  resetAuthorizer();
}

beforeAll(async () => {
  key = await issuerKey('outage-key');
});

afterEach(() => {
  jest.restoreAllMocks();
});

afterAll(async () => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetAuthorizer();
  await Promise.all(servers.map((server) => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  })));
});

describe('an identity provider whose key set cannot be fetched', () => {
  it.each([
    ['refuses connections', () => closedEndpoint()],
    ['answers HTTP 503', () => jwksEndpoint((_request, response) => response.writeHead(503).end('maintenance'))],
    ['answers a page that is not JSON', () => jwksEndpoint((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>'))],
    ['answers JSON that is no key set', () => jwksEndpoint((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"down"}'))],
    // jose gives up after its 5 s timeout; the endpoint never answers.
    ['never answers', () => jwksEndpoint(() => undefined)],
  ])('that %s answers a good token with the 503 problem and Retry-After, and logs why', async (_, endpoint) => {
    trustIssuerAt(await endpoint());
    const logged = jest.spyOn(logger, 'error');

    // The key set is fetched before the subject is looked up: no user is needed.
    const response = await invoke('getCurrentUser', { token: await sign('idp|anyone') });

    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body).toMatchObject({ status: 503, code: 'service_unavailable' });
    expect(logged).toHaveBeenCalledWith('Identity provider unavailable', {
      reason: 'idp_unavailable',
      detail: expect.stringMatching(/^The issuer's key set could not be fetched \(.+\)\.$/),
    });
  }, 15_000);
});

describe('an identity provider that is up', () => {
  it('still refuses a token whose key id is not in its key set with 401', async () => {
    await createTestUser({ subject: 'idp|unknown-kid' });
    trustIssuerAt(await jwksEndpoint(serveKeys));

    const response = await invoke('getCurrentUser', { token: await sign('idp|unknown-kid', 'no-such-kid') });

    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('keeps accepting tokens with the keys it fetched once the endpoint goes down', async () => {
    const user = await createTestUser({ subject: 'idp|cached-keys' });
    let up = true;
    trustIssuerAt(await jwksEndpoint((request, response) => (up ? serveKeys(request, response) : response.writeHead(503).end())));
    const token = await sign('idp|cached-keys');
    const before = await invoke('getCurrentUser', { token });
    up = false;

    const after = await invoke('getCurrentUser', { token });

    expect(before.status).toBe(200);
    expect(after.status).toBe(200);
    expect(after.body.id).toBe(user.record.id);
  });
});
