import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { usersKeys } from '../../functions/shared/tables/users-keys';
import { usersTable } from '../../functions/shared/tables/users-table';
import { userRepository } from '../../local/tool-composition';
import type { RouteName } from '../../functions/routes';
import { toAuthorizerContext } from '../../functions/shared/http/caller';
import { runRoute } from '../../local/gateway/dispatch';
import { matchRoute } from '../../local/gateway/route-matcher';
import { denyAsIam } from '../harness/iam-answers';
import { localRequest, type InvokeRequest } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * A request IAM refuses. DynamoDB Local enforces no IAM, so locally nothing is ever denied; in AWS a
 * function sends only what its policy allows (test/lib/function-grants-coverage.test.ts replays
 * every function's requests against its synthesized policy), and a denial can only mean a broken
 * deployment. Such a denial must then read as what it is: a 500 that is logged and alarms, never a
 * 4xx the client is blamed for, never a 503 it is told to retry, and never the policy's text.
 */

let user: TestUser;
let allow: () => void = () => {};

beforeEach(async () => {
  user = await createTestUser({ 'first-name': 'Before' });
});

afterEach(() => allow());

/** Route `name` as `user`, as the local gateway runs it; 500 is no documented answer, so no contract check. */
async function call(name: RouteName, request: InvokeRequest = {}) {
  const local = localRequest(name, request);
  const match = matchRoute(local.method, local.path);
  if (!match) throw new Error(`No route matches ${local.method} ${local.path}.`);
  const raw = await runRoute(local, match, { ...toAuthorizerContext(user.caller, Math.floor(Date.now() / 1000) + 600) });
  return { status: raw.statusCode, headers: raw.headers, text: raw.body.toString('utf8') };
}

describe('a DynamoDB request that IAM denies', () => {
  it("is the error the SDK makes of DynamoDB's answer: a 400 AccessDeniedException", async () => {
    allow = denyAsIam(getDocumentClient(), (command) => command === 'GetItemCommand');
    await expect(getDocumentClient().send(new GetCommand({ TableName: tableName(usersTable), Key: usersKeys.profile(user.record.id) }))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
  });

  it('makes a read a 500 internal_error that shows nothing of the policy', async () => {
    allow = denyAsIam(getDocumentClient(), (command) => command === 'GetItemCommand');

    const response = await call('getCurrentUser');

    expect(response.status).toBe(500);
    expect(JSON.parse(response.text)).toMatchObject({ status: 500, code: 'internal_error' });
    expect(response.text).not.toMatch(/arn:|not authorized|AccessDenied|dynamodb:/i);
    expect(Object.keys(response.headers).map((name) => name.toLowerCase())).not.toContain('retry-after');
  });

  it('makes a write a 500, and nothing of it is applied', async () => {
    allow = denyAsIam(getDocumentClient(), (command) => command === 'UpdateItemCommand');

    const response = await call('updateCurrentUser', { body: { 'first-name': 'During' } });

    expect(response.status).toBe(500);
    allow();
    expect((await userRepository().findById(user.record.id))?.firstName).toBe('Before');
  });
});
