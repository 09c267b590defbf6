import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/** Answers that carry personal data are never kept by a cache (DESIGN.md section 5). */
describe('Cache-Control on personal data', () => {
  it('is no-store on a profile, a list, the media log and their problems', async () => {
    const user = await createTestUser({ role: 'user' });
    for (const response of [
      await invoke('getCurrentUser', { token: user.token }),
      await invoke('listUsers', { token: user.token }),
      await invoke('listMediaLog', { token: user.token }),
      await invoke('getUser', { token: user.token, pathParameters: { 'user-id': 999_999 } }),
      await invoke('updateCurrentUser', { token: user.token, body: { role: 'root' } }),
    ]) {
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('leaves the public API description cacheable', async () => {
    expect((await invoke('getOpenApi')).headers['cache-control']).toBeUndefined();
  });
});
