import { createPublicKey } from 'node:crypto';
import { importJWK, SignJWT } from 'jose';
import { LOCAL_TOKEN_AUDIENCE, LOCAL_TOKEN_ISSUER } from '../../functions/auth/auth-config';
import type { handler as AuthorizerHandler } from '../../functions/auth/authorizer';
import { lambdaContext } from '../../local/gateway/lambda-context';
import { buildAuthorizerEvent, buildProxyEvent } from '../../local/gateway/proxy-event';
import { matchRoute } from '../../local/gateway/route-matcher';
import { invoke, localRequest, testSigningKey, tokenFor } from '../harness/invoke';
import { createTestUser } from '../harness/users';

let authorizer: (event: Parameters<typeof AuthorizerHandler>[0]) => ReturnType<typeof AuthorizerHandler>;

beforeAll(async () => {
  // As in Lambda, the function's configuration (here the test file's signing key) exists before its module loads.
  await testSigningKey();
  const { handler } = await import('../../functions/auth/authorizer');
  authorizer = (event) => handler(event, lambdaContext('authorizer', 10_000));
});

/** The authorizer event API Gateway would send for GET /user/current with this Authorization header. */
function authorizerEvent(authorization: string | undefined) {
  const request = localRequest('getCurrentUser', authorization === undefined ? {} : { headers: { Authorization: authorization } });
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error('route not matched');
  return buildAuthorizerEvent(buildProxyEvent(request, match, null));
}

async function signed(claims: { sub: string; iss?: string; aud?: string; exp?: number }): Promise<string> {
  const key = await testSigningKey();
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', kid: key.kid })
    .setSubject(claims.sub)
    .setIssuer(claims.iss ?? LOCAL_TOKEN_ISSUER)
    .setAudience(claims.aud ?? LOCAL_TOKEN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(claims.exp ?? Math.floor(Date.now() / 1000) + 600)
    .sign(await importJWK(key.privateJwk, 'RS256'));
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

describe('REQUEST authorizer', () => {
  it('allows an active user for the whole API and passes its identity as context', async () => {
    const user = await createTestUser({ role: 'user' });
    const result = await authorizer(authorizerEvent(`Bearer ${user.token}`));
    expect(result.policyDocument.Statement).toEqual([
      { Action: 'execute-api:Invoke', Effect: 'Allow', Resource: expect.stringMatching(/:localapi\/local\/\*$/) },
    ]);
    expect(result.context).toEqual({ userId: String(user.record.id), role: 'user', parentId: '', exp: expect.any(String) });
  });

  it("passes the token's exp, so that the routes refuse the token past it whatever API Gateway cached", async () => {
    const user = await createTestUser();
    const exp = Math.floor(Date.now() / 1000) + 120;
    const result = await authorizer(authorizerEvent(`Bearer ${await signed({ sub: user.record.subject, exp })}`));
    expect(result.context?.exp).toBe(String(exp));
  });

  it('passes the parent of a sub user', async () => {
    const parent = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: parent.record.id });
    const result = await authorizer(authorizerEvent(`Bearer ${sub.token}`));
    expect(result.context).toEqual({ userId: String(sub.record.id), role: 'sub', parentId: String(parent.record.id), exp: expect.any(String) });
  });

  it('allows a suspended user\'s valid token: its cached answer must not outlive a reactivation (the routes answer 403)', async () => {
    const user = await createTestUser({ status: 'suspended' });
    const result = await authorizer(authorizerEvent(`Bearer ${user.token}`));
    expect(result.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
  });

  it.each([
    ['no header', async () => undefined],
    ['a non-bearer scheme', async () => 'Basic dXNlcjpwYXNz'],
    ['garbage', async () => 'Bearer not-a-jwt'],
    ['an expired token', async () => `Bearer ${await signed({ sub: '1', exp: Math.floor(Date.now() / 1000) - 60 })}`],
    ['a wrong audience', async () => `Bearer ${await signed({ sub: '1', aud: 'someone-else' })}`],
    ['a wrong issuer', async () => `Bearer ${await signed({ sub: '1', iss: 'https://evil.example' })}`],
    ['an unknown subject', async () => `Bearer ${await tokenFor('no-such-subject')}`],
  ])('refuses %s with Unauthorized', async (_, header) => {
    await expect(authorizer(authorizerEvent(await header()))).rejects.toThrow('Unauthorized');
  });

  it.each([
    ['a lowercase scheme', (token: string) => `bearer ${token}`],
    ['an uppercase scheme', (token: string) => `BEARER ${token}`],
    ['two spaces', (token: string) => `Bearer  ${token}`],
    ['a tab', (token: string) => `Bearer\t${token}`],
    ['trailing white space', (token: string) => `Bearer ${token} `],
    ['leading white space', (token: string) => ` Bearer ${token}`],
  ])('refuses a valid token spelled with %s: one token is one key to the WAF and the authorizer cache', async (_, spell) => {
    const user = await createTestUser();
    await expect(authorizer(authorizerEvent(`Bearer ${user.token}`))).resolves.toMatchObject({ principalId: expect.any(String) });
    await expect(authorizer(authorizerEvent(spell(user.token)))).rejects.toThrow('Unauthorized');
  });

  it('refuses alg none', async () => {
    const user = await createTestUser();
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: user.record.subject, iss: LOCAL_TOKEN_ISSUER, aud: LOCAL_TOKEN_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.`;
    await expect(authorizer(authorizerEvent(`Bearer ${unsigned}`))).rejects.toThrow('Unauthorized');
  });

  it('refuses HS256 signed with the public key as the secret', async () => {
    const user = await createTestUser();
    const key = await testSigningKey();
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = key.privateJwk;
    const pem = createPublicKey({ key: publicJwk as never, format: 'jwk' }).export({ type: 'spki', format: 'pem' });
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', kid: key.kid })
      .setSubject(user.record.subject)
      .setIssuer(LOCAL_TOKEN_ISSUER)
      .setAudience(LOCAL_TOKEN_AUDIENCE)
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode(String(pem)));
    await expect(authorizer(authorizerEvent(`Bearer ${forged}`))).rejects.toThrow('Unauthorized');
  });
});

describe('gateway answers for the authorizer', () => {
  it('answers 401 problem+json with WWW-Authenticate for a missing or bad token', async () => {
    for (const token of [undefined, 'bad.token.value']) {
      const response = await invoke('getCurrentUser', token === undefined ? {} : { token });
      expect(response.status).toBe(401);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(response.body).toMatchObject({ status: 401, code: 'unauthorized' });
    }
  });

  it('answers 403 problem+json for a suspended user', async () => {
    const user = await createTestUser({ status: 'suspended' });
    const response = await invoke('getCurrentUser', { token: user.token });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ status: 403, code: 'forbidden' });
  });
});
