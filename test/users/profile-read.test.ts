import { tableName } from '../../functions/shared/config/data-config';
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { avatarItem } from '../../functions/avatars/avatar-record';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { usersTable } from '../../functions/shared/tables/users-table';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * A user's profile sorts after its avatars in its partition. However many avatar items the
 * partition holds (more than any upload path allows, as a bulk import or a bug could leave), the
 * profile is still found: the read must never depend on how many items sort before it.
 */
describe('the profile read', () => {
  it('finds the profile behind two thousand avatar items, two megabytes of them (two Query pages)', async () => {
    const user = await createTestUser({ role: 'user' });
    const items = Array.from({ length: 2000 }, (_, index) =>
      avatarItem({ userId: user.record.id, avatarId: randomUUID(), created: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(), objectKey: `avatars/${user.record.id}/${'x'.repeat(900)}.webp`, provider: 's3' }),
    );
    for (let start = 0; start < items.length; start += 25) {
      const requests = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
      await getDocumentClient().send(new BatchWriteCommand({ RequestItems: { [tableName(usersTable)]: requests } }));
    }
    const own = await invoke('getCurrentUser', { token: user.token });
    expect(own.status).toBe(200);
    expect(own.body.id).toBe(user.record.id);
    const admin = await createTestUser({ role: 'admin' });
    expect((await invoke('getUser', { token: admin.token, pathParameters: { 'user-id': user.record.id } })).status).toBe(200);
  }, 60_000);
});
