import type { Caller } from '../../shared/access/roles';
import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { FamilyScopes, type MemberScope } from '../../media-log/listing/listing-scope';

/**
 * What decides a live caller's scope, read once when it connects and kept with the connection, so
 * that the notifier never reads a user per change: a user's family (its own id and its sub users'),
 * or the root users an admin may not see. Root and sub users need nothing: root sees everything,
 * a sub itself. The access keeper (functions/live/access/) reads it again when the family or the
 * root users change.
 */
export interface ScopeDirectory {
  readonly family?: readonly number[];
  readonly roots?: readonly number[];
}

/** The directory of `caller`, read from the users table as a listing of the media log reads it. */
export async function readScopeDirectory(caller: Pick<Caller, 'userId' | 'role'>, users: Pick<UserScopeReader, 'familyMemberIds' | 'rootUserIds'>): Promise<ScopeDirectory> {
  if (caller.role === 'user') return { family: await users.familyMemberIds(caller.userId) };
  if (caller.role === 'admin') return { roots: await users.rootUserIds() };
  return {};
}

/** A kept directory, answering as the users table did when it was read. */
class KeptDirectory implements Pick<UserScopeReader, 'familyMemberIds' | 'rootUserIds'> {
  public constructor(private readonly directory: ScopeDirectory) {}

  public async familyMemberIds(): Promise<number[]> {
    return [...(this.directory.family ?? [])];
  }

  public async rootUserIds(): Promise<number[]> {
    return [...(this.directory.roots ?? [])];
  }
}

/**
 * The scope of a subscription: the media log listing's own rules (FamilyScopes), narrowed to the
 * filter's `user-id` as the listing narrows it, answered from the kept directory without a read.
 */
export function subscriptionScope(caller: Caller, directory: ScopeDirectory, requested?: readonly number[]): Promise<MemberScope> {
  return new FamilyScopes(new KeptDirectory(directory)).resolve(caller, requested);
}
