import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/** This file's database holds exactly these users, so every total can be checked exactly. */
let root: TestUser;
let admin: TestUser;
let owner: TestUser;
let other: TestUser;
let subs: TestUser[];
let all: TestUser[];

beforeAll(async () => {
  root = await createTestUser({ role: 'root', email: 'root@example.test', username: 'zeta' });
  admin = await createTestUser({ role: 'admin', email: 'admin@example.test', username: 'alpha' });
  owner = await createTestUser({ role: 'user', email: 'owner@example.test', username: 'mike' });
  other = await createTestUser({ role: 'user', email: 'other@example.test', username: 'oscar', status: 'pending' });
  subs = [];
  for (const [index, name] of ['kilo', 'bravo', 'yankee', 'echo', 'delta'].entries()) {
    subs.push(await createTestUser({ role: 'sub', parent: owner.record.id, email: `sub${index}@example.test`, username: name }));
  }
  const otherSub = await createTestUser({ role: 'sub', parent: other.record.id, email: 'othersub@example.test', username: 'quebec' });
  all = [root, admin, owner, other, ...subs, otherSub];
});

const ids = (response: { body: { users: { id: number }[] } }) => response.body.users.map((user) => user.id);

describe('GET /user scope', () => {
  it('lists everyone for root, sorted by id ascending by default, with the spec shape', async () => {
    const response = await invoke('listUsers', { token: root.token, query: 'pagination[limit]=100' });
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(all.map((user) => user.record.id).sort((a, b) => a - b));
    expect(response.body.pagination).toEqual({ count: all.length, limit: 100, page: 1, total: all.length, next: null, 'total-exact': true });
    expect(response.body.sort).toEqual({ field: 'id', order: 'asc' });
    expect(response.body.filter).toEqual({});
    expect(response.body.users[0]).toEqual({ id: root.record.id, email: 'root@example.test', role: 'root', status: 'active', username: 'zeta' });
  });

  it('lists everyone but root users for admin', async () => {
    const response = await invoke('listUsers', { token: admin.token, query: 'pagination[limit]=100' });
    expect(ids(response)).toEqual(all.filter((user) => user.record.role !== 'root').map((user) => user.record.id));
    expect(response.body.pagination.total).toBe(all.length - 1);
  });

  it('lists itself and its own subs for a user', async () => {
    const response = await invoke('listUsers', { token: owner.token, query: 'pagination[limit]=100' });
    expect(ids(response)).toEqual([owner, ...subs].map((user) => user.record.id));
    expect(response.body.pagination.total).toBe(6);
  });

  it('filters a family by role with an exact total from its kept counts', async () => {
    const response = await invoke('listUsers', { token: owner.token, query: 'role=sub&sort[field]=username&pagination[limit]=2' });
    expect(response.body.users.map((user: { username: string }) => user.username)).toEqual(['bravo', 'delta']);
    expect(response.body.pagination.total).toBe(5);
  });

  it('lists only itself for a sub, filters included', async () => {
    const filtered = await invoke('listUsers', { token: subs[1]!.token, query: 'role=user' });
    expect(filtered.body.users).toEqual([]);
    expect(filtered.body.pagination.total).toBe(0);
  });

  it('lists only itself for a sub', async () => {
    const response = await invoke('listUsers', { token: subs[1]!.token });
    expect(ids(response)).toEqual([subs[1]!.record.id]);
    expect(response.body.pagination.total).toBe(1);
  });
});

describe('GET /user filters and sort', () => {
  it('filters by role (repeated or comma-separated) and status, with exact totals', async () => {
    const repeated = await invoke('listUsers', { token: root.token, query: 'role=user&role=admin' });
    const commas = await invoke('listUsers', { token: root.token, query: 'role=user,admin' });
    expect(ids(repeated)).toEqual([admin, owner, other].map((user) => user.record.id));
    expect(ids(commas)).toEqual(ids(repeated));
    expect(repeated.body.filter).toEqual({ role: ['user', 'admin'] });
    expect(repeated.body.pagination.total).toBe(3);
    const pending = await invoke('listUsers', { token: root.token, query: 'status=pending' });
    expect(ids(pending)).toEqual([other.record.id]);
    expect(pending.body.pagination.total).toBe(1);
  });

  it('gives admin nothing for role=root', async () => {
    const response = await invoke('listUsers', { token: admin.token, query: 'role=root' });
    expect(response.body.users).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });

  it('sorts by username both ways and by email', async () => {
    const asc = await invoke('listUsers', { token: owner.token, query: 'sort[field]=username&sort[order]=asc' });
    expect(asc.body.users.map((user: { username: string }) => user.username)).toEqual(['bravo', 'delta', 'echo', 'kilo', 'mike', 'yankee']);
    const desc = await invoke('listUsers', { token: owner.token, query: 'sort[field]=username&sort[order]=desc' });
    expect(desc.body.users.map((user: { username: string }) => user.username)).toEqual(['yankee', 'mike', 'kilo', 'echo', 'delta', 'bravo']);
    expect(desc.body.sort).toEqual({ field: 'username', order: 'desc' });
    const byEmail = await invoke('listUsers', { token: root.token, query: 'sort[field]=email&pagination[limit]=3' });
    expect(byEmail.body.users.map((user: { email: string }) => user.email)).toEqual(['admin@example.test', 'other@example.test', 'othersub@example.test']);
  });

  it('sorts by created in id order, newest first on desc', async () => {
    const response = await invoke('listUsers', { token: root.token, query: 'sort[field]=created&sort[order]=desc&pagination[limit]=2' });
    expect(ids(response)).toEqual(all.slice(-2).reverse().map((user) => user.record.id));
  });

  it('filters by an email prefix, case-insensitively, with an exact total', async () => {
    const response = await invoke('listUsers', { token: root.token, query: 'email=SUB' });
    expect(response.body.users.map((user: { email: string }) => user.email)).toEqual(subs.map((sub) => sub.record.email));
    expect(response.body.pagination.total).toBe(5);
    expect(response.body.sort).toEqual({ field: 'email', order: 'asc' });
  });

  it('keeps the prefix filter inside the caller scope', async () => {
    const response = await invoke('listUsers', { token: owner.token, query: 'email=other' });
    expect(response.body.users).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });
});

describe('GET /user pagination', () => {
  it('gives a partial last page and an empty page past the end, with the right total', async () => {
    const last = await invoke('listUsers', { token: root.token, query: 'pagination[page]=3&pagination[limit]=4' });
    expect(ids(last)).toEqual(all.slice(8).map((user) => user.record.id));
    expect(last.body.pagination).toEqual({ count: 2, limit: 4, page: 3, total: 10, next: null, 'total-exact': true });
    const past = await invoke('listUsers', { token: root.token, query: 'pagination[page]=9&pagination[limit]=4' });
    expect(past.body.users).toEqual([]);
    expect(past.body.pagination).toMatchObject({ count: 0, page: 9, total: 10 });
  });

  it('walks every user exactly once by following the cursor, with a constant total', async () => {
    const seen: number[] = [];
    let query = 'pagination[limit]=3&sort[field]=username&sort[order]=desc';
    let cursor: string | null = null;
    let page = 0;
    do {
      const response = await invoke('listUsers', { token: root.token, query: cursor === null ? query : `${query}&pagination[cursor]=${encodeURIComponent(cursor)}` });
      expect(response.status).toBe(200);
      page += 1;
      expect(response.body.pagination).toMatchObject({ page, total: 10 });
      seen.push(...ids(response));
      cursor = response.body.pagination.next;
    } while (cursor !== null);
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
  });

  it('refuses a tampered cursor or one from another query', async () => {
    const first = await invoke('listUsers', { token: root.token, query: 'pagination[limit]=2' });
    const cursor = first.body.pagination.next as string;
    const tampered = await invoke('listUsers', { token: root.token, query: `pagination[limit]=2&pagination[cursor]=x${cursor}` });
    expect(tampered.status).toBe(400);
    expect(tampered.body.errors[0].name).toBe('pagination[cursor]');
    const otherQuery = await invoke('listUsers', { token: root.token, query: `pagination[limit]=3&pagination[cursor]=${cursor}` });
    expect(otherQuery.status).toBe(400);
    const otherCaller = await invoke('listUsers', { token: admin.token, query: `pagination[limit]=2&pagination[cursor]=${cursor}` });
    expect(otherCaller.status).toBe(400);
  });
});

describe('GET /user bad input', () => {
  it.each([
    ['pagination[page]=0', 'pagination[page]'],
    ['pagination[limit]=0', 'pagination[limit]'],
    ['pagination[limit]=101', 'pagination[limit]'],
    ['pagination[limit]=1.5', 'pagination[limit]'],
    ['pagination[limit]=10&pagination[limit]=20', 'pagination[limit]'],
    ['sort[field]=password', 'sort[field]'],
    ['sort[order]=sideways', 'sort[order]'],
    ['role=superuser', 'role'],
    ['status=gone', 'status'],
    ['bogus=1', 'bogus'],
    ['pagination[offset]=5', 'pagination[offset]'],
    ['email=a&sort[field]=id', 'sort[field]'],
    ['sort=id', 'sort'],
  ])('%s is a 400 naming %s', async (query, name) => {
    const response = await invoke('listUsers', { token: root.token, query });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toBe('application/problem+json');
    expect(response.body.errors.map((error: { name: string }) => error.name)).toContain(name);
  });
});
