import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { OFFSET_BUDGET } from '../../functions/shared/listing/pagination';
import { USER_PREFIX_COUNT_UNITS } from '../../functions/users/user-list-repository';
import { usersTable } from '../../functions/shared/tables/users-table';
import { listingAttributes, usersKeys } from '../../functions/shared/tables/users-keys';
import { invoke } from '../harness/invoke';
import { attachReadMeter } from '../../local/metering/read-meter';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * Bounded work per request (OWASP API4): offset paging stops at a budget and points to cursors, a
 * name prefix is counted within a read budget (its total then says it is a lower bound), and a
 * cursor that is not one this API issued is a 400 before any decoding or cryptography.
 */

let root: TestUser;
/** More users under one prefix than the count's read units read: about 2,400 of these summaries (170 bytes each). */
const PREFIXED = 3000;

beforeAll(async () => {
  root = await createTestUser({ role: 'root' });
  // More users under one email prefix than the count budget reads: written straight into the table.
  const items = Array.from({ length: PREFIXED }, (_, index) => {
    const user = { id: 1_000_000 + index, email: `crowd${String(index).padStart(5, '0')}@example.test`, username: `crowd${index}`, role: 'user' as const, parentId: null };
    return { ...usersKeys.profile(user.id), ...user, status: 'active', subject: `local:${user.id}`, firstName: '', lastName: '', version: 1, ...listingAttributes(user) };
  });
  for (let start = 0; start < items.length; start += 25) {
    const requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    await getDocumentClient().send(new BatchWriteCommand({ RequestItems: { [tableName(usersTable)]: requests } }));
  }
}, 120_000);

describe('offset paging', () => {
  it(`refuses page × limit over ${OFFSET_BUDGET} with a 400 that points to the cursor`, async () => {
    const response = await invoke('listUsers', { token: root.token, query: 'pagination[page]=101&pagination[limit]=100' });
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: 'pagination[page]', reason: expect.stringContaining('pagination[cursor]') }]);
    expect((await invoke('listUsers', { token: root.token, query: 'pagination[page]=100&pagination[limit]=100' })).status).toBe(200);
  });
});

describe('a name prefix matching more users than the count budget reads', () => {
  it('answers its page, a total that says it is a lower bound, and reads within the budget', async () => {
    const meter = attachReadMeter(getDocumentClient());
    const response = await invoke('listUsers', { token: root.token, query: 'email=crowd' });
    meter.detach();
    expect(response.status).toBe(200);
    expect(response.body.users).toHaveLength(10);
    expect(response.body.pagination).toMatchObject({ 'total-exact': false, next: expect.any(String) });
    // What the budget buys at the largest summary size, at least; fewer than all of them.
    expect(response.body.pagination.total).toBeGreaterThanOrEqual(Math.floor(((USER_PREFIX_COUNT_UNITS - 0.5) * 8192) / 720));
    expect(response.body.pagination.total).toBeLessThan(PREFIXED);
    // The count's Queries (Select COUNT) and the page's one Query and the caller's profile.
    expect(meter.tally().billedReadUnits).toBeLessThanOrEqual(USER_PREFIX_COUNT_UNITS + 2);
  });

  it('counts a narrower prefix exactly', async () => {
    const response = await invoke('listUsers', { token: root.token, query: 'email=crowd0001' });
    expect(response.body.pagination).toMatchObject({ total: 10, 'total-exact': true });
  });
});

describe('cursors', () => {
  it.each([
    ['a non-ASCII MAC (once a 500)', 'abc.%C3%A9aaaaaaaaaaaaaaaaaaaaa'],
    ['percent-encoded garbage', '%00%FF%FE.%0A'],
    ['an over-long value', `${'a'.repeat(5000)}.${'b'.repeat(22)}`],
    ['a well-formed value with a MAC this API did not make', `${Buffer.from('{"p":2,"a":"x","q":"y"}').toString('base64url')}.${'A'.repeat(22)}`],
  ])('answers %s with a 400 naming pagination[cursor]', async (_name, cursor) => {
    const response = await invoke('listUsers', { token: root.token, query: `pagination[cursor]=${cursor}` });
    expect(response.status).toBe(400);
    expect(response.body.errors.length).toBeGreaterThan(0);
    expect(response.body.errors.map((error: { name: string }) => error.name)).toEqual(response.body.errors.map(() => 'pagination[cursor]'));
    const log = await invoke('listMediaLog', { token: root.token, query: `pagination[cursor]=${cursor}` });
    expect(log.status).toBe(400);
  });

  it('refuses a cursor of the users listing on the media log', async () => {
    const page = await invoke('listUsers', { token: root.token, query: 'pagination[limit]=1' });
    const response = await invoke('listMediaLog', { token: root.token, query: `pagination[limit]=1&pagination[cursor]=${encodeURIComponent(page.body.pagination.next)}` });
    expect(response.status).toBe(400);
  });
});
