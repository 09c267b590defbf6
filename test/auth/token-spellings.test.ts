import type { handler as AuthorizerHandler } from '../../functions/auth/authorizer';
import type { LocalGateway } from '../../local/gateway/http-server';
import { lambdaContext } from '../../local/gateway/lambda-context';
import { buildAuthorizerEvent, buildProxyEvent } from '../../local/gateway/proxy-event';
import { matchRoute } from '../../local/gateway/route-matcher';
import { localRequest, testSigningKey } from '../harness/invoke';
import { startTestGateway } from '../harness/test-gateway';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * One token, one spelling (DESIGN 3). A JWS is three base64url segments, and a decoder as lenient
 * as jose's accepts padding and ignores the unused low bits of a segment's last character: an RS256
 * signature (256 bytes, 342 characters, 4 unused bits) could be written 32 ways, each its own key to
 * the WAF's per-token rule and to the authorizer cache. Only the canonical spelling is accepted; the
 * others get the same 401 as any bad token, locally as through API Gateway.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PREFIX = '/frontend/api/v1';

let authorizer: (event: Parameters<typeof AuthorizerHandler>[0]) => ReturnType<typeof AuthorizerHandler>;
let gateway: LocalGateway;
let user: TestUser;

/** The signature's last character with other unused low bits: the same bytes, spelled differently. */
function lastCharacterXor(signature: string, bits: number): string {
  const last = ALPHABET.indexOf(signature.at(-1) as string);
  return `${signature.slice(0, -1)}${ALPHABET[last ^ bits]}`;
}

/** Non-canonical spellings of a token, each decoding to exactly its bytes. */
const RESPELLINGS: readonly [string, (header: string, payload: string, signature: string) => string][] = [
  ['padded with ==', (header, payload, signature) => `${header}.${payload}.${signature}==`],
  ['its last character with the lowest unused bit set', (header, payload, signature) => `${header}.${payload}.${lastCharacterXor(signature, 1)}`],
  ['its last character with every unused bit flipped', (header, payload, signature) => `${header}.${payload}.${lastCharacterXor(signature, 15)}`],
  ['padded and with other unused bits', (header, payload, signature) => `${header}.${payload}.${lastCharacterXor(signature, 8)}==`],
];

/** `token` respelled as `name` says; the test checks that only the spelling differs. */
function respelled(token: string, name: string): string {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const respell = RESPELLINGS.find(([candidate]) => candidate === name)?.[1];
  if (!respell) throw new Error(`No respelling ${name}.`);
  const variant = respell(header, payload, signature);
  expect(variant).not.toBe(token);
  expect(Buffer.from(variant.split('.')[2] as string, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
  return variant;
}

function authorizerEvent(authorization: string) {
  const request = localRequest('getCurrentUser', { headers: { Authorization: authorization } });
  const match = matchRoute(request.method, request.path);
  if (!match) throw new Error('route not matched');
  return buildAuthorizerEvent(buildProxyEvent(request, match, null));
}

beforeAll(async () => {
  await testSigningKey();
  const { handler } = await import('../../functions/auth/authorizer');
  authorizer = (event) => handler(event, lambdaContext('authorizer', 10_000));
  ({ gateway } = await startTestGateway());
  user = await createTestUser();
  // An RS256 signature of 256 bytes: 342 characters, the last of which carries 4 unused bits.
  expect(user.token.split('.')[2]).toHaveLength(342);
});

afterAll(async () => {
  await gateway.close();
});

describe('the authorizer', () => {
  it('accepts the canonical spelling of a token', async () => {
    await expect(authorizer(authorizerEvent(`Bearer ${user.token}`))).resolves.toMatchObject({ principalId: String(user.record.id) });
  });

  it.each(RESPELLINGS.map(([name]) => name))('refuses the same token %s', async (name) => {
    await expect(authorizer(authorizerEvent(`Bearer ${respelled(user.token, name)}`))).rejects.toThrow('Unauthorized');
  });
});

describe('the local gateway over HTTP', () => {
  async function status(token: string) {
    const response = await fetch(`${gateway.baseUrl}${PREFIX}/user/current`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, challenge: response.headers.get('www-authenticate'), body: (await response.json()) as { code: string } };
  }

  it('answers the canonical spelling 200 and every other spelling 401 invalid_token', async () => {
    expect((await status(user.token)).status).toBe(200);
    for (const [name] of RESPELLINGS) {
      const answer = await status(respelled(user.token, name));
      expect({ name, ...answer }).toEqual({ name, status: 401, challenge: 'Bearer error="invalid_token"', body: expect.objectContaining({ code: 'unauthorized' }) });
    }
  });
});
