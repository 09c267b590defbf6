import { routes } from '../../functions/routes';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { testSigningKey } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { runSmokeCommand } from './smoke-runner';

/**
 * `npm run smoke` against a real local gateway (the real authorizer, handlers, DynamoDB Local), as
 * an operator runs it after a deployment: every check passes, and a wrong token or origin fails the
 * checks it concerns with a one-line reason. The tests' origin list is the local default (dev
 * servers on loopback), so http://localhost:5173 is allowed and https://evil.example is not.
 */

const PREFIX = '/frontend/api/v1';
const DEV_SERVER = 'http://localhost:5173';
let gateway: LocalGateway;
let user: TestUser;
let apiUrl: string;

beforeAll(async () => {
  await testSigningKey();
  gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0);
  apiUrl = `${gateway.baseUrl}${PREFIX}`;
  user = await createTestUser();
});

afterAll(async () => {
  await gateway.close();
});

describe('npm run smoke against the local gateway', () => {
  it('passes every check with --token and --origin, and exits 0', async () => {
    const run = await runSmokeCommand(['--url', apiUrl, '--token', user.token, '--origin', DEV_SERVER]);
    expect(run.lines).toEqual([
      `ok   document: OpenAPI 3.1.0, ${routes.length} operations`,
      `ok   401: 401 unauthorized, WWW-Authenticate: Bearer error="invalid_token", readable from ${DEV_SERVER}`,
      `ok   preflight: 204 for ${DEV_SERVER}, methods GET,PUT, headers Authorization,Content-Type,If-Match,Idempotency-Key`,
      `ok   user: 200 User ${user.record.id} (user, active), ETag "1", readable from ${DEV_SERVER}`,
      'ok   404: 404 not_found',
    ]);
    expect(run.status).toBe(0);
  });

  it('skips the checks that need --token or --origin without them, and exits 0', async () => {
    const run = await runSmokeCommand(['--url', `${apiUrl}/`]);
    expect(run.lines).toEqual([
      `ok   document: OpenAPI 3.1.0, ${routes.length} operations`,
      'ok   401: 401 unauthorized, WWW-Authenticate: Bearer error="invalid_token"',
      'skip preflight: needs --origin',
      'skip user: needs --token',
      'ok   404: 404 not_found',
    ]);
    expect(run.status).toBe(0);
  });

  it('fails the user check with the 401 problem for a token the stage refuses, and exits 1', async () => {
    const run = await runSmokeCommand(['--url', apiUrl, '--token', 'not.a.token']);
    expect(run.lines[3]).toBe('FAIL user: expected 200, got 401 unauthorized: A valid bearer token is required.');
    expect(run.lines.filter((line) => line.startsWith('FAIL'))).toHaveLength(1);
    expect(run.status).toBe(1);
  });

  it('fails the preflight and the profile read for an origin the stage does not allow, and exits 1', async () => {
    const run = await runSmokeCommand(['--url', apiUrl, '--token', user.token, '--origin', 'https://evil.example']);
    const reason = 'no Access-Control-Allow-Origin for https://evil.example (is it in the stage\'s corsOrigins?)';
    expect(run.lines.slice(1, 4)).toEqual([
      // With several origins configured, the gateway's own error answers echo any origin (DESIGN.md 5a: they carry no data).
      'ok   401: 401 unauthorized, WWW-Authenticate: Bearer error="invalid_token", readable from https://evil.example',
      `FAIL preflight: ${reason}`,
      `FAIL user: ${reason}`,
    ]);
    expect(run.status).toBe(1);
  });

  it('points at the prefix when the URL lacks it', async () => {
    const run = await runSmokeCommand(['--url', gateway.baseUrl]);
    expect(run.lines[0]).toBe(`FAIL document: expected 200, got 404 not_found: No resource matches this method and path. (--url should end in ${PREFIX}, as the ApiUrl stack output does)`);
    expect(run.status).toBe(1);
  });
});
