import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { resetConfiguration as resetAuthorizer } from '../../functions/shared/config/define-config';
import { invoke, tokenFor } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/** A stand-in OIDC issuer on 127.0.0.1: it serves a JWKS whose keys the test rotates. */
const ISSUER = 'https://issuer.example.test/';
const AUDIENCE = 'frontend-web';
let server: Server;
let jwks: { keys: JWK[] } = { keys: [] };
let jwksRequests = 0;

async function issuerKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  return { kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

function sign(key: Awaited<ReturnType<typeof issuerKey>>, subject: string, overrides: { iss?: string; aud?: string } = {}) {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setSubject(subject)
    .setIssuer(overrides.iss ?? ISSUER)
    .setAudience(overrides.aud ?? AUDIENCE)
    .setExpirationTime('5m')
    .sign(key.privateKey);
}

let first: Awaited<ReturnType<typeof issuerKey>>;
const saved = { ...process.env };

beforeAll(async () => {
  first = await issuerKey('key-1');
  jwks = { keys: [first.publicJwk] };
  server = createServer((request, response) => {
    jwksRequests += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, {
    AUTH_ISSUER: ISSUER,
    AUTH_AUDIENCE: AUDIENCE,
    AUTH_JWKS_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`,
    AUTH_JWKS_COOLDOWN_MS: '50',
  });
  resetAuthorizer();
});

afterAll(async () => {
  for (const name of ['AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'AUTH_JWKS_COOLDOWN_MS']) {
    if (saved[name] === undefined) delete process.env[name];
  }
  resetAuthorizer();
  await new Promise((resolve) => server.close(resolve));
});

describe('an external issuer (AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL)', () => {
  it('accepts its token for the user linked to its subject', async () => {
    const user = await createTestUser({ subject: 'idp|alice' });
    const response = await invoke('getCurrentUser', { token: await sign(first, 'idp|alice') });
    expect(response.status).toBe(200);
    expect(response.body.id).toBe(user.record.id);
  });

  it('refuses a wrong audience and a wrong issuer', async () => {
    await createTestUser({ subject: 'idp|bob' });
    expect((await invoke('getCurrentUser', { token: await sign(first, 'idp|bob', { aud: 'another-app' }) })).status).toBe(401);
    expect((await invoke('getCurrentUser', { token: await sign(first, 'idp|bob', { iss: 'https://other.example.test/' }) })).status).toBe(401);
  });

  it('follows a key rotated into the JWKS, fetching it again for the unknown key id', async () => {
    await createTestUser({ subject: 'idp|carol' });
    const second = await issuerKey('key-2');
    jwks = { keys: [first.publicJwk, second.publicJwk] };
    await new Promise((resolve) => setTimeout(resolve, 60));
    const before = jwksRequests;
    const response = await invoke('getCurrentUser', { token: await sign(second, 'idp|carol') });
    expect(response.status).toBe(200);
    expect(jwksRequests).toBeGreaterThan(before);
  });

  it('refuses a token of the local signing key', async () => {
    const user = await createTestUser();
    const response = await invoke('getCurrentUser', { token: await tokenFor(user.record.subject) });
    expect(response.status).toBe(401);
  });
});
