import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { UserScopeReader } from '../../functions/shared/tables/user-scope-reader';
import { usersTable } from '../../functions/shared/tables/users-table';
import { createTestUser, type TestUser } from '../harness/users';

/**
 * The users a media log listing's scope is made of, read from the users table's listing indexes:
 * a family (a user and its sub users, nobody else's) and the root users (whom an admin's listing
 * leaves out). This test file has a database of its own: every user in it is created here.
 */

let owner: TestUser;
let subs: TestUser[];
let roots: TestUser[];

beforeAll(async () => {
  roots = [await createTestUser({ role: 'root' }), await createTestUser({ role: 'root' })];
  owner = await createTestUser({ role: 'user' });
  const neighbour = await createTestUser({ role: 'user' });
  await createTestUser({ role: 'sub', parent: neighbour.record.id });
  await createTestUser({ role: 'admin' });
  subs = [await createTestUser({ role: 'sub', parent: owner.record.id }), await createTestUser({ role: 'sub', parent: owner.record.id })];
});

const reader = () => new UserScopeReader(getDocumentClient(), tableName(usersTable));

describe('the users of a media log scope', () => {
  it('reads a family as the user first, then its sub users by id, and no other family', async () => {
    const ids = await reader().familyMemberIds(owner.record.id);

    expect(ids).toEqual([owner.record.id, ...subs.map((sub) => sub.record.id)]);
  });

  it('reads a user without sub users as itself alone', async () => {
    const loner = await createTestUser({ role: 'user' });

    expect(await reader().familyMemberIds(loner.record.id)).toEqual([loner.record.id]);
  });

  it('reads the root users and nobody else', async () => {
    const ids = await reader().rootUserIds();

    expect(ids).toEqual(roots.map((root) => root.record.id));
  });
});
