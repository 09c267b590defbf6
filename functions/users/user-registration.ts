import { NotFoundError } from '../shared/errors';
import { ROLES, USER_STATUSES } from '../shared/access/roles';
import * as z from '../shared/validation/zod';
import { parseInput } from '../shared/validation/issues';

import { checkParentRule } from './parent-rule';
import { NamePartSchema } from './profile-schemas';
import type { NewUser, UserRepository } from './user-repository';
import type { UserRecord } from './user-record';

/** A new user as an operator describes it (`cli user create`). */
export const CreateUserSchema = z.strictObject({
  email: z.string().check(z.trim(), z.maxLength(254), z.email()),
  username: z.optional(z.string().check(z.trim(), z.regex(/^[A-Za-z0-9._-]{1,64}$/, 'Letters, digits, dot, underscore and dash; 1-64 characters.'))),
  role: z._default(z.enum(ROLES), 'user'),
  status: z._default(z.enum(USER_STATUSES), 'active'),
  parent: z.optional(z.number().check(z.int(), z.positive())),
  'first-name': z._default(NamePartSchema, ''),
  'last-name': z._default(NamePartSchema, ''),
  subject: z.optional(z.string().check(z.minLength(1), z.maxLength(255))),
});
/** Input of {@link registerUser}. */
export type CreateUser = z.input<typeof CreateUserSchema>;

/**
 * Check a new user under the same rules as the API — valid fields, a sub user with a parent of role
 * `user`, no parent for other roles — and return what to store. Everything that can refuse a user
 * before it is written refuses it here, so that a caller can do irreversible work (an invitation)
 * between the check and the write.
 */
export async function checkNewUser(users: UserRepository, input: CreateUser): Promise<NewUser> {
  const user = parseInput(CreateUserSchema, input, 'body');
  checkParentRule(user.role, user.parent ?? null);
  if (user.parent !== undefined) {
    const parent = await users.findById(user.parent);
    if (!parent || parent.role !== 'user') throw new NotFoundError('The parent user does not exist or is not of role user.');
  }
  return {
    email: user.email,
    username: user.username ?? user.email.split('@')[0]!.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 64),
    role: user.role,
    status: user.status,
    parentId: user.parent ?? null,
    firstName: user['first-name'],
    lastName: user['last-name'],
    ...(user.subject === undefined ? {} : { subject: user.subject }),
  };
}

/**
 * Create a user under the same rules as the API ({@link checkNewUser}); emails and token subjects
 * are unique (409). The subject defaults to `local:<id>`.
 */
export async function registerUser(users: UserRepository, input: CreateUser): Promise<UserRecord> {
  return users.create(await checkNewUser(users, input));
}
