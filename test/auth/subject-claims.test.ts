import { tableName } from '../../functions/shared/config/data-config';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { ConflictError } from '../../functions/shared/errors';
import { usersTable } from '../../functions/shared/tables/users-table';
import { usersKeys } from '../../functions/shared/tables/users-keys';
import { userRepository } from '../../local/tool-composition';
import { registerUser } from '../../functions/users/user-registration';
import { invoke, tokenFor } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/** One user per token subject: a subject can never be taken over by creating another user. */

let sequence = 0;
const email = () => `claims${(sequence += 1)}-${Date.now()}@example.test`;

describe('token subjects', () => {
  it('default to local:<id>, so a bare number another issuer could issue names nobody', async () => {
    const user = await createTestUser({ role: 'root' });
    expect(user.record.subject).toBe(`local:${user.record.id}`);
    const response = await invoke('getCurrentUser', { token: await tokenFor(String(user.record.id)) });
    expect(response.status).toBe(401);
  });

  it('are claimed once: creating a user with a subject another user has is a 409, and the token still names the first', async () => {
    const root = await createTestUser({ role: 'root' });
    const attempt = registerUser(userRepository(), { email: email(), role: 'user', subject: root.record.subject });
    await expect(attempt).rejects.toBeInstanceOf(ConflictError);
    await expect(attempt).rejects.toMatchObject({ status: 409, errors: [{ name: 'subject' }] });
    const response = await invoke('getCurrentUser', { token: root.token });
    expect(response.body).toMatchObject({ id: root.record.id, role: 'root' });
  });

  it('refuse a subject that more than one stored user answers to (401), rather than picking one', async () => {
    const first = await createTestUser({ role: 'user', subject: 'idp|shared' });
    // Two records claiming one subject, as no transaction of this service can write them.
    await getDocumentClient().send(new PutCommand({
      TableName: tableName(usersTable),
      Item: { ...usersKeys.profile(first.record.id + 1000), id: first.record.id + 1000, subject: 'idp|shared', role: 'root', status: 'active', parentId: null },
    }));
    const response = await invoke('getCurrentUser', { token: first.token });
    expect(response.status).toBe(401);
  });
});
