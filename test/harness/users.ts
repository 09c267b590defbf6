import type { Caller } from '../../functions/shared/access/roles';
import { userRepository } from '../../local/tool-composition';
import { registerUser, type CreateUser } from '../../functions/users/user-registration';
import type { UserRecord } from '../../functions/users/user-record';
import { tokenFor } from './invoke';

let sequence = 0;

/** A user created for a test, with a valid token and its caller identity. */
export interface TestUser {
  readonly record: UserRecord;
  readonly token: string;
  readonly caller: Caller;
}

/** Create a user through the real repository (unique email by default) and mint its token. */
export async function createTestUser(overrides: Partial<CreateUser> = {}): Promise<TestUser> {
  sequence += 1;
  const record = await registerUser(userRepository(), {
    email: `user${sequence}-${Date.now()}@example.test`,
    'first-name': 'Test',
    'last-name': `User ${sequence}`,
    ...overrides,
  });
  return { record, token: await tokenFor(record.subject), caller: { userId: record.id, role: record.role, parentId: record.parentId } };
}
