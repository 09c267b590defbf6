import { generateKeyPair, importJWK, SignJWT, type JWTPayload } from 'jose';
import { enableTelemetry, isMetricLine, useTelemetryCapture, type Line } from './telemetry-capture';

/**
 * Why the authorizer refused a token is in its log line (`reason`, a fixed vocabulary) and in the
 * AuthorizerDenials metric, never in the answer: every refusal is the same 401 problem, byte for
 * byte. Real authorizer and gateway code, tokens signed with the test file's key or forged.
 */

enableTelemetry({ metrics: true });
const { LOCAL_TOKEN_AUDIENCE, LOCAL_TOKEN_ISSUER } = await import('../../functions/auth/auth-config');
const { TOKEN_REFUSAL_REASONS } = await import('../../functions/auth/token-refusal');
const { lambdaContext } = await import('../../local/gateway/lambda-context');
const { buildAuthorizerEvent, buildProxyEvent } = await import('../../local/gateway/proxy-event');
const { matchRoute } = await import('../../local/gateway/route-matcher');
const { invoke, localRequest, testSigningKey, tokenFor } = await import('../harness/invoke');
const { createTestUser } = await import('../harness/users');

const lines = useTelemetryCapture();

/** Options of a forged token: claims over valid ones, and how it is signed. */
interface Forgery {
  readonly claims?: JWTPayload;
  readonly omit?: readonly string[];
  readonly kid?: string;
  /** Sign with a key of its own, under the test key's id. */
  readonly foreignKey?: boolean;
}

/** A token for `subject` that is valid unless `forgery` says otherwise. */
async function token(subject: string, forgery: Forgery = {}): Promise<string> {
  const key = await testSigningKey();
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { sub: subject, iss: LOCAL_TOKEN_ISSUER, aud: LOCAL_TOKEN_AUDIENCE, iat: now, exp: now + 600, ...forgery.claims };
  for (const name of forgery.omit ?? []) delete claims[name];
  const signingKey = forgery.foreignKey ? (await generateKeyPair('RS256')).privateKey : await importJWK(key.privateJwk, 'RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: forgery.kid ?? key.kid }).sign(signingKey);
}

function unsigned(subject: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ sub: subject, iss: LOCAL_TOKEN_ISSUER, aud: LOCAL_TOKEN_AUDIENCE, exp: Math.floor(Date.now() / 1000) + 600 })}.`;
}

/** The `Authorization` header of each refusal, by the reason the log must give. */
const refusals: [string, (subject: string) => Promise<string>][] = [
  ['malformed', async () => 'Basic dXNlcjpwYXNz'],
  ['malformed', async () => 'Bearer not-a-jwt'],
  ['expired', async (subject) => `Bearer ${await token(subject, { claims: { exp: Math.floor(Date.now() / 1000) - 60 } })}`],
  ['not_yet_valid', async (subject) => `Bearer ${await token(subject, { claims: { nbf: Math.floor(Date.now() / 1000) + 600 } })}`],
  ['bad_signature', async (subject) => `Bearer ${await token(subject, { foreignKey: true })}`],
  ['unknown_key', async (subject) => `Bearer ${await token(subject, { kid: 'no-such-key' })}`],
  ['wrong_algorithm', async (subject) => `Bearer ${unsigned(subject)}`],
  ['wrong_issuer', async (subject) => `Bearer ${await token(subject, { claims: { iss: 'https://issuer.example' } })}`],
  ['wrong_audience', async (subject) => `Bearer ${await token(subject, { claims: { aud: 'someone-else' } })}`],
  ['missing_claim', async (subject) => `Bearer ${await token(subject, { omit: ['exp'] })}`],
  ['unknown_subject', async () => `Bearer ${await tokenFor('no-such-subject')}`],
];

/** The answer a client sees, the request id aside. */
function clientView(response: Awaited<ReturnType<typeof invoke>>) {
  const { 'x-amzn-requestid': _id, 'x-amz-apigw-id': _extended, ...headers } = response.headers;
  return { status: response.status, headers, body: response.raw.body.toString('utf8') };
}

function refusalLines(captured: readonly Line[]): Line[] {
  return captured.filter((line) => line.message === 'Token refused');
}

describe('a refused token', () => {
  let subject: string;

  beforeAll(async () => {
    subject = (await createTestUser()).record.subject;
  });

  it.each(refusals)('is logged and counted with reason %s, and answered with the one 401 problem', async (reason, header) => {
    const authorization = await header(subject);
    const reference = clientView(await invoke('getCurrentUser', { headers: { Authorization: 'Bearer x.y.z' } }));
    lines.take();

    const response = await invoke('getCurrentUser', { headers: { Authorization: authorization } });

    expect(clientView(response)).toEqual(reference);
    expect(response.status).toBe(401);
    const captured = lines.take();
    expect(refusalLines(captured)).toEqual([expect.objectContaining({ reason, level: 'INFO', function_name: 'authorizer', correlation_id: response.headers['x-amzn-requestid'] })]);
    const metric = captured.find((line) => isMetricLine(line) && 'AuthorizerDenials' in line);
    expect(metric).toMatchObject({ reason, service: 'frontend-api', AuthorizerDenials: 1 });
    expect(metric?._aws.CloudWatchMetrics).toEqual([{ Namespace: 'FrontendApi', Dimensions: [['service', 'reason']], Metrics: [{ Name: 'AuthorizerDenials', Unit: 'Count' }] }]);
    // The token itself is never logged.
    const token = authorization.replace(/^\S+\s+/, '');
    for (const line of captured) expect(JSON.stringify(line)).not.toContain(token);
  });

  it('without any header is refused as missing when the authorizer is asked (API Gateway answers 401 before asking it)', async () => {
    const { handler } = await import('../../functions/auth/authorizer');
    const request = localRequest('getCurrentUser');
    const match = matchRoute(request.method, request.path);
    if (!match) throw new Error('No route matches GET /user/current.');

    await expect(handler(buildAuthorizerEvent(buildProxyEvent(request, match, null)), lambdaContext('authorizer', 10_000))).rejects.toThrow('Unauthorized');

    expect(refusalLines(lines.take())).toEqual([expect.objectContaining({ reason: 'missing' })]);
  });

  it('has its reason in the documented vocabulary', () => {
    expect(TOKEN_REFUSAL_REASONS).toEqual(expect.arrayContaining([...new Set(refusals.map(([reason]) => reason)), 'missing']));
  });
});
