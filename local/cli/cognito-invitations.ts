import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
  UsernameExistsException,
} from '@aws-sdk/client-cognito-identity-provider';
import { clientOptions } from '../../functions/shared/aws/clients';
import { ConflictError } from '../../functions/shared/errors';
import type { IdentityInvitations, InvitedIdentity } from '../../functions/users/user-invitation';
import { SettingsError } from '../local-settings';

/** The variables that point `user create` at the stack's Cognito user pool. */
export const USER_POOL_ENV = {
  /** The stack's `UserPoolId` output: with it, `user create` invites into that pool. */
  userPoolId: 'USER_POOL_ID',
  /** An endpoint other than AWS's (a local stand-in of Cognito). */
  endpoint: 'COGNITO_ENDPOINT',
} as const;

// A pool id starts with its region (`eu-west-1_AbCdEf123`), so the pool needs no region setting.
const POOL_ID = /^([a-z]{2}(?:-[a-z]+)+-\d+)_[0-9A-Za-z]+$/;

/** A call to the user pool that failed: the pool's own reason, in one line. */
export class UserPoolError extends Error {
  public constructor(userPoolId: string, doing: string, error: unknown) {
    super(`the user pool ${userPoolId} refused to ${doing}: ${describe(error)}`, { cause: error });
    this.name = 'UserPoolError';
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.name === 'Error' || error.message.includes(error.name) ? error.message : `${error.name}: ${error.message}`;
}

/**
 * Invitations into a Cognito user pool whose usernames are email addresses (the stack's pool signs
 * in by email): AdminCreateUser makes the login and emails the person their username and a
 * temporary password, to be changed at the first sign-in; AdminDeleteUser withdraws it.
 */
export class CognitoInvitations implements IdentityInvitations {
  public constructor(
    private readonly client: CognitoIdentityProviderClient,
    public readonly userPoolId: string,
  ) {}

  /** Invite `email`; a login that exists already is a 409 that says how to link it instead. */
  public async invite(email: string): Promise<InvitedIdentity> {
    const answer = await this.client
      .send(
        new AdminCreateUserCommand({
          UserPoolId: this.userPoolId,
          Username: email,
          // Verified, since the operator vouches for the address: the person can reset a forgotten password.
          UserAttributes: [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }],
          DesiredDeliveryMediums: ['EMAIL'],
        }),
      )
      .catch((error: unknown) => {
        if (error instanceof UsernameExistsException) {
          throw new ConflictError(`The user pool ${this.userPoolId} already has a login for ${email}: link it with --subject and its sub instead of inviting it again.`);
        }
        throw new UserPoolError(this.userPoolId, `invite ${email}`, error);
      });
    const subject = answer.User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
    const username = answer.User?.Username;
    if (!subject || !username) throw new UserPoolError(this.userPoolId, `invite ${email}`, new Error('its answer names no sub and username of the new login'));
    return { subject, username };
  }

  /** Delete the login of an invitation. */
  public async withdraw(identity: InvitedIdentity): Promise<void> {
    await this.client.send(new AdminDeleteUserCommand({ UserPoolId: this.userPoolId, Username: identity.username })).catch((error: unknown) => {
      throw new UserPoolError(this.userPoolId, `delete ${identity.username}`, error);
    });
  }
}

/**
 * The invitations of the user pool `USER_POOL_ID` names, or undefined without it. The pool's
 * region is the one its id starts with; `COGNITO_ENDPOINT` reaches a stand-in instead of AWS.
 */
export function userPoolInvitations(env: NodeJS.ProcessEnv = process.env): CognitoInvitations | undefined {
  const userPoolId = env[USER_POOL_ENV.userPoolId];
  if (!userPoolId) return undefined;
  const region = POOL_ID.exec(userPoolId)?.[1];
  if (region === undefined) {
    throw new SettingsError(`${USER_POOL_ENV.userPoolId}=${userPoolId} is no Cognito user pool id: take the stack's UserPoolId output (such as eu-west-1_AbCdEf123).`);
  }
  const endpoint = env[USER_POOL_ENV.endpoint] || undefined;
  const client = new CognitoIdentityProviderClient(
    // AdminCreateUser is not idempotent: a retry of a call whose answer was lost meets the login the
    // first attempt made and would refuse a person who was invited. One attempt; the operator re-runs.
    clientOptions({ region, endpoint, limits: { maxAttempts: 1, connectionTimeoutMs: 3000, requestTimeoutMs: 10_000 } }),
  );
  return new CognitoInvitations(client, userPoolId);
}
