import { useLocalGateway } from '../harness/local-gateway';
import { createTestUser } from '../harness/users';
import { signIn } from '../../clients/web/src/frontend-api.js';

/**
 * The frontend module's queries as the API reads them, over HTTP through the local gateway: where
 * the document gives a parameter a style openapi-fetch cannot know at run time (GET /user's
 * `prefix`, form style), the module writes it so.
 */

const gateway = useLocalGateway();

describe('the frontend module', () => {
  it('lists users by an email or a username prefix, each sent as a parameter of its own', async () => {
    const stamp = Date.now();
    const user = await createTestUser({ role: 'user', email: `prefix-${stamp}@example.test`, username: `prefix-${stamp}` });
    const api = signIn(gateway.baseUrl, user.token);

    const byEmail = await api.listUsers({ prefix: { email: `prefix-${stamp}` }, sort: { order: 'desc' } });
    const byUsername = await api.listUsers({ prefix: { username: `prefix-${stamp}` } });

    expect([byEmail.response.status, byUsername.response.status]).toEqual([200, 200]);
    expect(byEmail.data?.users.map((listed) => listed.id)).toEqual([user.record.id]);
    expect(byUsername.data?.users.map((listed) => listed.id)).toEqual([user.record.id]);
    expect(byEmail.response.url).toContain(`email=prefix-${stamp}`);
  });
});
