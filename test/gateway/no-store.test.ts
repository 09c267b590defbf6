import { invoke, type InvokeRequest } from '../harness/invoke';
import type { RouteName } from '../../functions/routes';
import { createTestUser, type TestUser } from '../harness/users';

/** Answers that carry personal data are never kept by a cache (DESIGN.md section 5). */
describe('Cache-Control on personal data', () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await createTestUser({ role: 'user' });
  });

  // One case per route, so that each route's first (cold) load has a test's time to itself.
  it.each<[string, RouteName, Omit<InvokeRequest, 'token'>]>([
    ['a profile', 'getCurrentUser', {}],
    ['a list', 'listUsers', {}],
    ['the media log', 'listMediaLog', {}],
    ['a not-found problem', 'getUser', { pathParameters: { 'user-id': 999_999 } }],
    ['a validation problem', 'updateCurrentUser', { body: { role: 'root' } }],
  ])('is no-store on %s', async (_, route, request) => {
    const response = await invoke(route, { ...request, token: user.token });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('leaves the public API description cacheable', async () => {
    expect((await invoke('getOpenApi')).headers['cache-control']).toBeUndefined();
  });
});
