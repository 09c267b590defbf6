import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

let user: TestUser;

beforeAll(async () => {
  user = await createTestUser({ role: 'user' });
});

describe('GET /media/log bad input', () => {
  it.each([
    ['status=bogus', 'status'],
    ['status=success,bogus', 'status'],
    ['status-ffscan=done', 'status-ffscan'],
    ['status-mediainfo=', 'status-mediainfo'],
    ['status-scan-report=SUCCESS', 'status-scan-report'],
    ['user-id=0', 'user-id'],
    ['user-id=abc', 'user-id'],
    ['user-id=1.5', 'user-id'],
    ['request=not-a-uuid', 'request'],
    ['request=3f2b0c3e-1d2a-4f5b-9c8d-7e6f5a4b3c2d&request=3f2b0c3e-1d2a-4f5b-9c8d-7e6f5a4b3c2e', 'request'],
    ['url=', 'url'],
    [`url=${'a'.repeat(2049)}`, 'url'],
    ['send[from]=2026-02-01T00:00:00Z&send[to]=2026-01-01T00:00:00Z', 'send[from]'],
    ['send[from]=yesterday', 'send[from]'],
    ['send[to]=2026-01-01', 'send[to]'],
    // Valid date-times whose UTC value leaves the years 0000-9999 (and would sort before every key).
    ['send[from]=9999-12-31T23:59:59-01:00', 'send[from]'],
    ['send[to]=0000-01-01T00:00:00%2B01:00', 'send[to]'],
    ['send[until]=2026-01-01T00:00:00Z', 'send[until]'],
    ['send=2026-01-01T00:00:00Z', 'send'],
    ['sort[field]=bogus', 'sort[field]'],
    ['sort[field]=url', 'sort[field]'],
    ['sort[order]=random', 'sort[order]'],
    ['pagination[limit]=1000', 'pagination[limit]'],
    ['pagination[limit]=0', 'pagination[limit]'],
    ['pagination[page]=0', 'pagination[page]'],
    ['pagination[page]=-1', 'pagination[page]'],
    ['pagination[page]=2.5', 'pagination[page]'],
    ['pagination[cursor]=abc', 'pagination[cursor]'],
    ['bogus=1', 'bogus'],
    ['created[from]=2026-01-01T00:00:00Z', 'created'],
  ])('%s is a 400 problem naming %s', async (query, parameter) => {
    const response = await invoke('listMediaLog', { token: user.token, query });
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect(response.body.errors.map((error: { name: string }) => error.name)).toEqual([parameter]);
  });

  it('accepts the largest limit and the boundaries of every range', async () => {
    const response = await invoke('listMediaLog', {
      token: user.token,
      query: 'pagination[limit]=100&pagination[page]=1&send[from]=2026-01-01T00:00:00Z&send[to]=2026-01-01T00:00:00Z&sort[field]=send&sort[order]=asc',
    });
    expect(response.status).toBe(200);
    expect(response.body.pagination).toEqual({ count: 0, limit: 100, page: 1, total: 0, next: null, 'total-exact': true });
  });

  it('accepts the first and last instants of the calendar, and a range reaching into the future', async () => {
    for (const query of ['send[from]=0000-01-01T00:00:00Z&send[to]=9999-12-31T23:59:59.999Z', 'send[from]=9999-12-31T22:59:59-01:00', 'send[to]=2999-01-01T00:00:00Z']) {
      const response = await invoke('listMediaLog', { token: user.token, query });
      expect({ query, status: response.status }).toEqual({ query, status: 200 });
    }
  });
});
