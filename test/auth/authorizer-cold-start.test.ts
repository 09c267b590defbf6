import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { avatarBucketName, tableName } from '../../functions/shared/config/data-config';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { tables } from '../../functions/shared/tables';
import { buildAuthorizerEvent } from '../../local/gateway/proxy-event';
import { deployedFunctions } from '../../local/lambda/function-bundles';
import { DEPLOYED_SETTINGS, lambdaEnvironment } from '../../local/lambda/lambda-process';
import { proxyEvent, resultOf, useDeployedBundles } from '../bundles/deployed-bundles-harness';
import { createTestUser } from '../harness/users';

/**
 * The authorizer's cold start with an external issuer, run from its bundle as Lambda runs it: it
 * loads no Node fetch (undici) at init, where jose's remote key set would load it for a `Headers`
 * object no init uses (DESIGN.md 9: the authorizer's init was the furthest over its floor); its
 * first token, which needs the key set, loads it, and is verified as before.
 */

const ISSUER = 'https://issuer.example.test/';
const AUDIENCE = 'frontend-web';
const deployed = useDeployedBundles(['authorizer']);
const authorizer = deployedFunctions().find((fn) => fn.name === 'authorizer')!;
let server: Server;
let jwksUrl: string;
let signingKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  signingKey = privateKey;
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'cold-start', alg: 'RS256', use: 'sig' }] };
  server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(jwks)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** The settings that point the authorizer at the stand-in issuer. */
const issuerSettings = (): Record<string, string> => ({ AUTH_ISSUER: ISSUER, AUTH_AUDIENCE: AUDIENCE, AUTH_JWKS_URL: jwksUrl });

describe('the authorizer bundle with an external issuer', () => {
  it('loads no Node fetch at its cold start', () => {
    const folder = deployed.bundles.get('authorizer')!.folder;
    const configuration = {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'cold-start',
      AWS_SECRET_ACCESS_KEY: 'cold-start',
      ...Object.fromEntries(tables.map((table) => [table.nameEnv, tableName(table)])),
      [avatarBucket.nameEnv]: avatarBucketName(),
      ...issuerSettings(),
      ...DEPLOYED_SETTINGS,
    };
    const script = `await import(${JSON.stringify(`${folder}/index.mjs`)}); console.log(JSON.stringify(process.moduleLoadList.filter((name) => /undici|fetch/i.test(name))));`;

    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: lambdaEnvironment('authorizer', folder, configuration), encoding: 'utf8' });

    expect(JSON.parse(loaded.trim().split('\n').at(-1) ?? 'null')).toEqual([]);
  });

  it('verifies its first token against the issuer\'s key set, fetched then', async () => {
    const user = await createTestUser({ subject: `idp|cold-start-${Date.now()}` });
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid: 'cold-start' }).setSubject(user.record.subject).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(signingKey);
    const event = buildAuthorizerEvent(await proxyEvent('getCurrentUser', { token }));

    const answer = resultOf(await deployed.invoke(authorizer, deployed.bundles.get('authorizer')!, event, issuerSettings())) as APIGatewayAuthorizerResult;

    expect(answer.policyDocument.Statement).toEqual([expect.objectContaining({ Effect: 'Allow' })]);
    expect(answer.context).toMatchObject({ userId: String(user.record.id) });
  });
});
