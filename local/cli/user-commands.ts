import { registerInvitedUser } from '../../functions/users/user-invitation';
import { registerUser, type CreateUser } from '../../functions/users/user-registration';
import { statusToStderr } from '../backends';
import { usesExternalIssuer } from '../environment';
import { mintLocalToken } from '../signing-key';
import { UsageError } from './cli-errors';
import { userProfiles, userRepository } from '../tool-composition';
import { userPoolInvitations } from './cognito-invitations';
import { parseCommand, parseUserId } from './arguments';
import { targetsDeployment, withData } from './data-access';

/**
 * `user create --email E [--username U] [--role R] [--status S] [--parent ID] [--first-name F] [--last-name L] [--subject S]`.
 * With `USER_POOL_ID` and no `--subject`, the person is invited into that Cognito pool and the
 * user answers to the pool's `sub`; `--subject` links an identity that exists already.
 */
export async function userCreate(args: string[]): Promise<void> {
  const { values } = parseCommand(args, {
    email: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' }, status: { type: 'string' },
    parent: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' }, subject: { type: 'string' },
  });
  if (values.email === undefined) throw new UsageError('user create needs --email.');
  const pool = values.subject === undefined ? userPoolInvitations() : undefined;
  // The default subject `local:<id>` is what locally minted tokens carry; no other issuer's tokens do.
  if (values.subject === undefined && pool === undefined && (targetsDeployment() || usesExternalIssuer())) {
    throw new UsageError('user create needs --subject (the sub claim of the person\'s tokens), or USER_POOL_ID (the UserPoolId output) to invite the person into the stack\'s Cognito pool, for deployed tables or an external issuer.');
  }
  const input: CreateUser = {
    email: values.email,
    username: values.username,
    role: values.role as never,
    status: values.status as never,
    parent: parseUserId(values.parent, '--parent'),
    'first-name': values['first-name'],
    'last-name': values['last-name'],
    subject: values.subject,
  };
  const user = await withData(async () => {
    const created = pool ? await registerInvitedUser(userRepository(), pool, input) : await registerUser(userRepository(), input);
    if (pool) statusToStderr(`invited ${created.email} into the user pool ${pool.userPoolId}: Cognito emails them their username and a temporary password`);
    return userProfiles().describe(created.id);
  });
  process.stdout.write(`${JSON.stringify(user, null, 2)}\n`);
}

/** `token --user ID [--ttl SECONDS]`: a bearer token for that user, signed with the local key. */
export async function token(args: string[]): Promise<void> {
  const { values } = parseCommand(args, { user: { type: 'string' }, ttl: { type: 'string' } });
  const userId = parseUserId(values.user, '--user');
  if (userId === undefined) throw new UsageError('token needs --user ID.');
  const ttl = values.ttl === undefined ? 3600 : Number(values.ttl);
  if (!Number.isSafeInteger(ttl) || ttl < 1 || ttl > 30 * 24 * 3600) throw new UsageError('--ttl takes seconds, from 1 to 2592000.');
  if (usesExternalIssuer()) {
    throw new UsageError('tokens come from the external issuer (AUTH_ISSUER is set); the local key cannot sign for it.');
  }
  const minted = await withData(async (key) => {
    if (key === null) throw new UsageError('token signs with the local key; it cannot mint tokens for a deployed issuer.');
    const user = await userRepository().findById(userId);
    if (!user) throw new UsageError(`no user with id ${userId}.`);
    return mintLocalToken(key, user.subject, ttl);
  });
  process.stdout.write(`${minted}\n`);
}
