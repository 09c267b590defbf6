import type { Caller, StoredCaller } from '../shared/access/roles';
import { ForbiddenError, UnauthorizedError } from '../shared/errors';
import { accessTargetOf } from '../shared/tables/user-partition';
import type { IdentityRepository } from './identity-repository';

/**
 * Who is calling, as stored now. API Gateway reuses the authorizer's answer for a token for the
 * whole cache TTL, so the role and status in the authorizer context may be minutes old; every
 * route instead acts on the caller's profile read in the same request (DESIGN.md section 2): a
 * suspension, a demotion or a deletion takes effect on the caller's very next request.
 */
export class StoredCallers {
  public constructor(private readonly identities: IdentityRepository) {}

  /**
   * The caller the authorizer named, with its stored role, parent and profile.
   *
   * @throws UnauthorizedError (401) when the user no longer exists.
   * @throws ForbiddenError (403) when the user is not active (suspended, pending, anonymous).
   */
  public async resolve(claims: Caller): Promise<StoredCaller> {
    const profile = await this.identities.storedProfile(claims.userId);
    if (profile === null) throw new UnauthorizedError('The user of this token no longer exists.');
    if (profile.status !== 'active') throw new ForbiddenError();
    const { role, parentId } = accessTargetOf(claims.userId, profile);
    return { userId: claims.userId, role, parentId, profile };
  }
}
