import { userAccounts } from '../../local/tool-composition';
import type { RouteName } from '../../functions/routes';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { dispatch } from '../../local/gateway/dispatch';
import { startImageSource, type ImageSource } from '../avatars/routes/image-source';
import { quadrantImage } from '../fixtures/images/generate';
import { localRequest, testSigningKey, type InvokeRequest } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * API Gateway reuses an authorizer's answer for a token for up to the cache TTL (300 s here, as
 * deployed). A suspension, a demotion or a deletion must still take effect on the very next request:
 * every route acts on the caller as stored, read in the same request.
 */

let runner: AuthorizerRunner;
let source: ImageSource;

beforeAll(async () => {
  await testSigningKey();
  runner = new AuthorizerRunner(await loadAuthorizer(), 300);
  source = await startImageSource();
});

afterAll(() => source.close());

/** A request through the gateway's dispatch with the caching authorizer. */
async function call(name: RouteName, request: InvokeRequest) {
  const response = await dispatch(localRequest(name, request), runner);
  return { status: response.statusCode, headers: response.headers, body: JSON.parse(response.body.toString('utf8') || 'null') };
}

describe('revocation with a cached authorizer answer', () => {
  it('refuses a user suspended after its token was cached, on every route, with the 403 problem', async () => {
    const user = await createTestUser({ role: 'user' });
    expect((await call('listUsers', { token: user.token })).status).toBe(200);
    await userAccounts().update(user.record.id, { status: 'suspended' });
    for (const name of ['listUsers', 'getCurrentUser', 'listMediaLog'] as const) {
      const response = await call(name, { token: user.token });
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ code: 'forbidden', status: 403 });
    }
  });

  it('starts no avatar fetch for a suspended caller', async () => {
    const user = await createTestUser({ role: 'user' });
    const url = source.serve('/revoked.png', await quadrantImage(64, 64), 'image/png');
    expect((await call('getCurrentUser', { token: user.token })).status).toBe(200);
    await userAccounts().update(user.record.id, { status: 'suspended' });
    source.takeRequests();
    const response = await call('uploadCurrentAvatar', { token: user.token, body: { avatar: url, crop: { left: 0, top: 0, size: 64 } } });
    expect(response.status).toBe(403);
    expect(source.takeRequests()).toEqual([]);
  });

  it('acts on the stored role: a demoted admin no longer reads other families', async () => {
    const admin = await createTestUser({ role: 'admin' });
    const other = await createTestUser({ role: 'user' });
    expect((await call('getUser', { token: admin.token, pathParameters: { 'user-id': other.record.id } })).status).toBe(200);
    await userAccounts().update(admin.record.id, { role: 'user' });
    const response = await call('getUser', { token: admin.token, pathParameters: { 'user-id': other.record.id } });
    expect(response.status).toBe(404);
  });

  it('answers a deleted user 401 with WWW-Authenticate', async () => {
    const user = await createTestUser({ role: 'user' });
    expect((await call('getCurrentUser', { token: user.token })).status).toBe(200);
    await userAccounts().remove(user.record.id);
    const response = await call('getCurrentUser', { token: user.token });
    expect(response.status).toBe(401);
    expect(response.headers['WWW-Authenticate'] ?? response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('lets a reactivated user in again at once', async () => {
    const user = await createTestUser({ role: 'user' });
    await userAccounts().update(user.record.id, { status: 'suspended' });
    expect((await call('getCurrentUser', { token: user.token })).status).toBe(403);
    await userAccounts().update(user.record.id, { status: 'active' });
    expect((await call('getCurrentUser', { token: user.token })).status).toBe(200);
  });
});
