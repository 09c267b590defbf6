import { ProblemError } from '../shared/errors';
import { checkNewUser, type CreateUser } from './user-registration';
import { emailTakenError, type UserRepository } from './user-repository';
import type { UserRecord } from './user-record';

/** A person's login created in the token issuer's user pool. */
export interface InvitedIdentity {
  /** The `sub` claim of the person's tokens: the user's token subject. */
  readonly subject: string;
  /** The pool's name of the login, by which it is withdrawn. */
  readonly username: string;
}

/**
 * The user pool that issues the tokens, as far as onboarding needs it: invite a person (create the
 * login and email them how to sign in) and withdraw an invitation (delete the login again).
 */
export interface IdentityInvitations {
  /** Create the login of `email` and send the invitation; refuses a login that exists already. */
  invite(email: string): Promise<InvitedIdentity>;
  /** Delete a login {@link invite} created. */
  withdraw(identity: InvitedIdentity): Promise<void>;
}

/** A user the write refused after its invitation went out, whose pool login could not be deleted. */
export class InvitationNotWithdrawnError extends Error {
  public constructor(
    refusal: unknown,
    public readonly identity: InvitedIdentity,
    failure: unknown,
  ) {
    super(`${reasonOf(refusal)} The invitation could not be withdrawn (${reasonOf(failure)}): delete the pool user ${identity.username} by hand.`, { cause: refusal });
    this.name = 'InvitationNotWithdrawnError';
  }
}

/** A user the write refused after its invitation went out; the pool login is deleted again. */
export class InvitationWithdrawnError extends Error {
  public constructor(refusal: unknown) {
    super(`${reasonOf(refusal)} The invitation is withdrawn: its pool user is deleted, its temporary password void.`, { cause: refusal });
    this.name = 'InvitationWithdrawnError';
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof ProblemError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Create a user whose identity the user pool creates: check it under the API's rules (and that its
 * email is free) before the invitation, since an invitation email cannot be taken back; then invite,
 * and store the user with the pool's `sub` as its token subject. A write refused after all (a
 * concurrent create, a subject another user holds) withdraws the invitation, so that no login is
 * left that answers to no user.
 */
export async function registerInvitedUser(users: UserRepository, pool: IdentityInvitations, input: CreateUser): Promise<UserRecord> {
  const user = await checkNewUser(users, input);
  if (await users.emailClaimed(user.email)) throw emailTakenError();
  const identity = await pool.invite(user.email);
  try {
    return await users.create({ ...user, subject: identity.subject });
  } catch (refusal) {
    try {
      await pool.withdraw(identity);
    } catch (failure) {
      throw new InvitationNotWithdrawnError(refusal, identity, failure);
    }
    throw new InvitationWithdrawnError(refusal);
  }
}
