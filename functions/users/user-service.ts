import type { AvatarRecord } from '../avatars/avatar-record';
import { canManage } from '../shared/access/access-policy';
import type { StoredCaller, UserTarget } from '../shared/access/roles';
import { NotFoundError } from '../shared/errors';
import { versionFromIfMatch } from '../shared/http/if-match';
import type { UpdateProfile } from './profile-schemas';
import type { User } from './schemas';
import { toUserRecord, type UserRecord } from './user-record';
import type { UserRepository, UserWithAvatars } from './user-repository';
import { etagOf, toUser } from './user-view';

/** A User together with its ETag. */
export interface VersionedUser {
  readonly user: User;
  readonly etag: string;
}

/**
 * Profile reads and updates under the access rules: a target outside the caller's scope is
 * answered exactly like a missing one (404), so ids cannot be probed. The caller's own profile is
 * the one its request has already read (the stored caller), never read twice.
 */
export class UserService {
  public constructor(private readonly users: UserRepository) {}

  /** The full profile of `target`, if the caller may manage it. */
  public async get(caller: StoredCaller, target: UserTarget): Promise<VersionedUser> {
    const found = await this.read(caller, target);
    return this.present(found.user, found.avatars);
  }

  /** The full profile of user `id` for an operator tool (the CLI), with no caller to check; 404 when there is none. */
  public async describe(id: number): Promise<User> {
    const found = await this.users.findWithAvatars(id);
    if (!found) throw new NotFoundError('No such user.');
    return (await this.present(found.user, found.avatars)).user;
  }

  /** Update the names of `target`; `ifMatch` (an ETag) makes the write conditional on that version. */
  public async update(caller: StoredCaller, target: UserTarget, update: UpdateProfile, ifMatch?: string): Promise<VersionedUser> {
    const user = target === 'current' ? toUserRecord(caller.profile) : (await this.read(caller, target)).user;
    const expectedVersion = versionFromIfMatch(ifMatch, user.version);
    const [updated, avatars] = await Promise.all([
      this.users.updateNames(user.id, { firstName: update['first-name'], lastName: update['last-name'] }, expectedVersion),
      this.users.avatarsOf(user.id),
    ]);
    // The written version, not a re-read: under concurrent writes each caller gets its own ETag.
    return this.present(updated, avatars);
  }

  private async read(caller: StoredCaller, target: UserTarget): Promise<UserWithAvatars> {
    if (target === 'current') return { user: toUserRecord(caller.profile), avatars: await this.users.avatarsOf(caller.userId) };
    const found = await this.users.findWithAvatars(target);
    if (!found || !canManage(caller, found.user)) throw new NotFoundError('No such user.');
    return found;
  }

  private async present(user: UserRecord, avatars: readonly AvatarRecord[]): Promise<VersionedUser> {
    const parent = user.parentId === null ? null : await this.users.findById(user.parentId);
    return { user: toUser(user, parent, avatars), etag: etagOf(user) };
  }
}
