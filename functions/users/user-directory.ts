import { usersKeys } from '../shared/tables/users-keys';
import type { UserListRepository } from './user-list-repository';

/** Most members of a family read for a scope; a user with more sub users than this sees the first ones by id. */
const MAX_FAMILY = 10_000;

/**
 * Which users belong together, for features that scope their own data by user (the media log):
 * a family (a user of role `user` and its sub users) and the root users. Read from the users
 * table's listing indexes, which only this feature addresses.
 */
export class UserDirectory {
  public constructor(private readonly lists: UserListRepository) {}

  /** A user of role `user` and its sub users, the user first. */
  public async familyMemberIds(userId: number): Promise<number[]> {
    const { items } = await this.lists.page({ partitions: [{ scope: 'family', value: usersKeys.scope.family(userId) }], sort: 'id' }, { ascending: true, skip: 0, take: MAX_FAMILY });
    return [userId, ...items.map((item) => item.id as number).filter((id) => id !== userId)];
  }

  /** The root users (a handful of operator accounts). */
  public async rootUserIds(): Promise<number[]> {
    const { items } = await this.lists.page({ partitions: [{ scope: 'role', value: usersKeys.scope.role('root') }], sort: 'id' }, { ascending: true, skip: 0, take: MAX_FAMILY });
    return items.map((item) => item.id as number);
  }
}
