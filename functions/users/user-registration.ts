import { NotFoundError } from '../shared/errors';
import { ROLES, USER_STATUSES } from '../shared/access/roles';
import * as z from '../shared/validation/zod';
import { parseInput } from '../shared/validation/issues';

import { checkParentRule } from './parent-rule';
import { NamePartSchema } from './schemas';
import type { UserRepository } from './user-repository';
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
 * Create a user under the same rules as the API: a sub user needs a parent of role `user`, other
 * roles take no parent, emails and token subjects are unique (409). The subject defaults to
 * `local:<id>`.
 */
export async function registerUser(users: UserRepository, input: CreateUser): Promise<UserRecord> {
  const user = parseInput(CreateUserSchema, input, 'body');
  checkParentRule(user.role, user.parent ?? null);
  if (user.parent !== undefined) {
    const parent = await users.findById(user.parent);
    if (!parent || parent.role !== 'user') throw new NotFoundError('The parent user does not exist or is not of role user.');
  }
  return users.create({
    email: user.email,
    username: user.username ?? user.email.split('@')[0]!.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 64),
    role: user.role,
    status: user.status,
    parentId: user.parent ?? null,
    firstName: user['first-name'],
    lastName: user['last-name'],
    ...(user.subject === undefined ? {} : { subject: user.subject }),
  });
}
