import type { AvatarRecord } from '../avatars/avatar-record';
import { ROLES, USER_STATUSES } from '../shared/access/roles';
import { NotFoundError, ValidationError } from '../shared/errors';
import { parseInput } from '../shared/validation/issues';
import * as z from '../shared/validation/zod';
import type { AccountRepository } from './account-repository';
import { checkParentRule } from './parent-rule';
import { NamePartSchema } from './profile-schemas';
import type { UserRecord } from './user-record';
import type { UserRepository } from './user-repository';

/** An operator's change of an account (`cli user update`): any of these, nothing else. */
export const AccountChangeSchema = z.strictObject({
  status: z.optional(z.enum(USER_STATUSES)),
  role: z.optional(z.enum(ROLES)),
  parent: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
  'first-name': z.optional(NamePartSchema),
  'last-name': z.optional(NamePartSchema),
});
/** Input of {@link UserAccounts.update}. */
export type AccountChangeInput = z.input<typeof AccountChangeSchema>;

/** What deleting a user removed: the user, and the avatar records whose image objects are now to delete. */
export interface RemovedUser {
  readonly user: UserRecord;
  readonly avatars: readonly AvatarRecord[];
}

/**
 * The operator's lever on accounts: suspend, reactivate, promote, demote, move between families,
 * rename, delete; under the same rules as creation. Each change takes effect on the user's very
 * next request, since every route reads the caller as stored.
 */
export class UserAccounts {
  public constructor(
    private readonly users: UserRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** Apply an operator's change to user `id`; 404 when there is no such user. */
  public async update(id: number, input: AccountChangeInput): Promise<UserRecord> {
    const change = parseInput(AccountChangeSchema, input, 'body');
    if (Object.keys(change).length === 0) throw new ValidationError([{ name: 'body', reason: 'Name at least one change.' }]);
    const before = await this.users.findById(id);
    if (!before) throw new NotFoundError('No such user.');
    const role = change.role ?? before.role;
    // A change of role away from sub drops the parent unless one is given; one to sub needs one.
    const parentId = change.parent !== undefined ? change.parent : role === 'sub' ? before.parentId : null;
    checkParentRule(role, parentId, id);
    return this.accounts.change(before, {
      role,
      parentId,
      ...(change.status === undefined ? {} : { status: change.status }),
      ...(change['first-name'] === undefined ? {} : { firstName: change['first-name'] }),
      ...(change['last-name'] === undefined ? {} : { lastName: change['last-name'] }),
    });
  }

  /** Delete user `id`, its claims and its avatar records; a user with sub users is refused (409). */
  public async remove(id: number): Promise<RemovedUser> {
    const found = await this.users.findWithAvatars(id);
    if (!found) throw new NotFoundError('No such user.');
    await this.accounts.delete(found.user, found.avatars);
    return found;
  }
}
