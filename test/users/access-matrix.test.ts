import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * Object-level authorization of GET and PUT /user/{user-id}: every caller role against every kind
 * of target. Outside the caller's scope the answer is 404, the same as for a user that does not exist.
 */
let users: Record<'root' | 'root2' | 'admin' | 'admin2' | 'user1' | 'sub1' | 'user2' | 'sub2' | 'suspended', TestUser>;

beforeAll(async () => {
  const root = await createTestUser({ role: 'root' });
  const root2 = await createTestUser({ role: 'root' });
  const admin = await createTestUser({ role: 'admin' });
  const admin2 = await createTestUser({ role: 'admin' });
  const user1 = await createTestUser({ role: 'user' });
  const user2 = await createTestUser({ role: 'user' });
  const sub1 = await createTestUser({ role: 'sub', parent: user1.record.id });
  const sub2 = await createTestUser({ role: 'sub', parent: user2.record.id });
  const suspended = await createTestUser({ role: 'admin', status: 'suspended' });
  users = { root, root2, admin, admin2, user1, sub1, user2, sub2, suspended };
});

type Name = keyof typeof users;

// caller → [target, expected status]
const matrix: [Name, [Name, number][]][] = [
  ['root', [['root', 200], ['sub1', 200], ['sub2', 200], ['user2', 200], ['admin2', 200], ['root2', 200]]],
  ['admin', [['admin', 200], ['sub1', 200], ['sub2', 200], ['user2', 200], ['admin2', 200], ['root2', 404]]],
  ['user1', [['user1', 200], ['sub1', 200], ['sub2', 404], ['user2', 404], ['admin2', 404], ['root2', 404]]],
  ['sub1', [['sub1', 200], ['user1', 404], ['sub2', 404], ['user2', 404], ['admin2', 404], ['root2', 404]]],
  ['suspended', [['suspended', 403], ['sub1', 403], ['sub2', 403], ['user2', 403], ['admin2', 403], ['root2', 403]]],
];

describe.each(matrix)('caller %s', (caller, targets) => {
  it.each(targets)('GET /user/{id of %s} answers %i', async (target, status) => {
    const response = await invoke('getUser', { token: users[caller].token, pathParameters: { 'user-id': users[target].record.id } });
    expect(response.status).toBe(status);
    if (status === 200) expect(response.body.id).toBe(users[target].record.id);
    if (status === 404) expect(response.body).toMatchObject({ status: 404, code: 'not_found', detail: 'No such user.' });
  });

  it.each(targets)('PUT /user/{id of %s} answers %i and writes only when allowed', async (target, status) => {
    const lastName = `Set by ${caller} ${Math.random()}`;
    const response = await invoke('updateUser', {
      token: users[caller].token,
      pathParameters: { 'user-id': users[target].record.id },
      body: { 'last-name': lastName },
    });
    expect(response.status).toBe(status);
    const reread = await invoke('getUser', { token: users.root.token, pathParameters: { 'user-id': users[target].record.id } });
    expect(reread.body['last-name'] === lastName).toBe(status === 200);
  });
});

describe('user-id validation', () => {
  it.each(['0', '-1', 'abc', '1.5', String(2 ** 53), '1e3', ' 1'])('refuses user-id %j with a 400 naming it', async (id) => {
    const response = await invoke('getUser', { token: users.root.token, pathParameters: { 'user-id': id } });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: 'user-id', reason: expect.any(String) }]);
  });

  it('answers 404 for a well-formed id that does not exist, like one out of scope', async () => {
    const response = await invoke('getUser', { token: users.root.token, pathParameters: { 'user-id': 999_999 } });
    expect(response.status).toBe(404);
    expect(response.body.detail).toBe('No such user.');
  });
});

describe('mass assignment by id', () => {
  it.each([{ role: 'root' }, { status: 'suspended' }, { id: 1 }, { email: 'evil@example.test' }, { parent: 1 }])(
    'refuses %j with 400 and changes nothing',
    async (extra) => {
      const before = await invoke('getUser', { token: users.root.token, pathParameters: { 'user-id': users.sub1.record.id } });
      const response = await invoke('updateUser', {
        token: users.user1.token,
        pathParameters: { 'user-id': users.sub1.record.id },
        body: { 'first-name': 'Changed', ...extra },
      });
      expect(response.status).toBe(400);
      expect(response.body.errors).toContainEqual({ name: Object.keys(extra)[0], reason: expect.any(String) });
      const after = await invoke('getUser', { token: users.root.token, pathParameters: { 'user-id': users.sub1.record.id } });
      expect(after.body).toEqual(before.body);
    },
  );
});
