import { userAccounts } from '../../local/tool-composition';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';

/** Operator changes move users between the kept totals and listing partitions exactly. */

async function listed(caller: TestUser, query: string) {
  const response = await invoke('listUsers', { token: caller.token, query: `${query}&pagination[limit]=100` });
  expect(response.status).toBe(200);
  return { ids: (response.body.users as { id: number }[]).map((user) => user.id), total: response.body.pagination.total as number };
}

describe('operator account changes', () => {
  it('keep every listing and total exact across suspensions, promotions, family moves and deletions', async () => {
    const root = await createTestUser({ role: 'root' });
    const head = await createTestUser({ role: 'user' });
    const other = await createTestUser({ role: 'user' });
    const sub = await createTestUser({ role: 'sub', parent: head.record.id });

    await userAccounts().update(sub.record.id, { status: 'suspended' });
    await userAccounts().update(sub.record.id, { parent: other.record.id });
    await userAccounts().update(head.record.id, { role: 'admin' });

    const suspended = await listed(root, 'status=suspended');
    expect(suspended).toEqual({ ids: [sub.record.id], total: 1 });
    const admins = await listed(root, 'role=admin');
    expect(admins.ids).toContain(head.record.id);
    expect(admins.total).toBe(admins.ids.length);
    // The sub moved families: its old family's head (now an admin) has none, its new one lists it.
    const family = await listed(other, 'role=sub');
    expect(family).toEqual({ ids: [sub.record.id], total: 1 });

    await userAccounts().remove(sub.record.id);
    expect(await listed(other, 'role=sub')).toEqual({ ids: [], total: 0 });
    expect(await listed(root, 'status=suspended')).toEqual({ ids: [], total: 0 });
  });

  it('refuses a change that names no field, and an unknown field', async () => {
    const user = await createTestUser({ role: 'user' });
    await expect(userAccounts().update(user.record.id, {})).rejects.toMatchObject({ status: 400 });
    await expect(userAccounts().update(user.record.id, { email: 'x@example.com' } as never)).rejects.toMatchObject({ status: 400, errors: [{ name: 'email' }] });
  });
});
