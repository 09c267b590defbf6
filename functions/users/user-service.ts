import { NotFoundError, ValidationError } from '../shared/errors';
import type { Caller } from '../shared/access/roles';
import { canManage } from '../shared/access/access-policy';
import type { UserRepository } from './user-repository';
import type { UpdateProfile, User } from './schemas';
import type { AvatarRecord, UserRecord } from './user-record';
import { etagOf, toUser, type AvatarPresenter } from './user-view';

/** Whose profile a request is about: the caller's own, or a user by id. */
export type UserTarget = 'current' | number;

/** A User together with its ETag. */
export interface VersionedUser {
  readonly user: User;
  readonly etag: string;
}

/** Parse an If-Match header into the version it names; `*` and absence impose no condition. */
export function versionFromIfMatch(ifMatch: string | undefined): number | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(ifMatch);
  if (!match) throw new ValidationError([{ name: 'If-Match', reason: 'Must be an ETag previously returned, e.g. "3".' }]);
  return Number(match[1]);
}

/**
 * Profile reads and updates under the access rules: a target outside the caller's scope is
 * answered exactly like a missing one (404), so ids cannot be probed.
 */
export class UserService {
  public constructor(
    private readonly users: UserRepository,
    private readonly presentAvatar: AvatarPresenter,
  ) {}

  private targetId(caller: Caller, target: UserTarget): number {
    return target === 'current' ? caller.userId : target;
  }

  /** The full profile of `target`, if the caller may manage it. */
  public async get(caller: Caller, target: UserTarget): Promise<VersionedUser> {
    const found = await this.users.findWithAvatars(this.targetId(caller, target));
    if (!found || !canManage(caller, found.user)) throw new NotFoundError('No such user.');
    return this.present(found.user, found.avatars);
  }

  /** Update the names of `target`; `ifMatch` (an ETag) makes the write conditional on that version. */
  public async update(caller: Caller, target: UserTarget, update: UpdateProfile, ifMatch?: string): Promise<VersionedUser> {
    const expectedVersion = versionFromIfMatch(ifMatch);
    const found = await this.users.findWithAvatars(this.targetId(caller, target));
    if (!found || !canManage(caller, found.user)) throw new NotFoundError('No such user.');
    const updated = await this.users.updateNames(found.user.id, { firstName: update['first-name'], lastName: update['last-name'] }, expectedVersion);
    // The written version, not a re-read: under concurrent writes each caller gets its own ETag.
    return this.present(updated, found.avatars);
  }

  private async present(user: UserRecord, avatars: readonly AvatarRecord[]): Promise<VersionedUser> {
    const parent = user.parentId === null ? null : await this.users.findById(user.parentId);
    return { user: toUser(user, parent, avatars, this.presentAvatar), etag: etagOf(user) };
  }
}
