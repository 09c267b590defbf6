import { parseArgs, type ParseArgsConfig } from 'node:util';
import { registerUser } from '../../functions/users/user-registration';
import { userRepository, userService } from '../../functions/users/user-context';
import { usesExternalIssuer } from '../environment';
import { mintLocalToken } from '../signing-key';
import { UsageError } from './cli-errors';
import { withData } from './data-access';

function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<string, string | undefined>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function parseId(raw: string | undefined, flag: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError(`${flag} takes a user id (a whole number >= 1).`);
  return Number(raw);
}

/** `user create --email E [--username U] [--role R] [--status S] [--parent ID] [--first-name F] [--last-name L] [--subject S]`. */
export async function userCreate(args: string[]): Promise<void> {
  const values = parse(args, {
    email: { type: 'string' }, username: { type: 'string' }, role: { type: 'string' }, status: { type: 'string' },
    parent: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' }, subject: { type: 'string' },
  });
  if (values.email === undefined) throw new UsageError('user create needs --email.');
  const user = await withData(async () => {
    const created = await registerUser(userRepository(), {
      email: values.email as string,
      username: values.username,
      role: values.role as never,
      status: values.status as never,
      parent: parseId(values.parent, '--parent'),
      'first-name': values['first-name'],
      'last-name': values['last-name'],
      subject: values.subject,
    });
    const caller = { userId: created.id, role: created.role, parentId: created.parentId };
    return (await userService().get(caller, 'current')).user;
  });
  process.stdout.write(`${JSON.stringify(user, null, 2)}\n`);
}

/** `token --user ID [--ttl SECONDS]`: a bearer token for that user, signed with the local key. */
export async function token(args: string[]): Promise<void> {
  const values = parse(args, { user: { type: 'string' }, ttl: { type: 'string' } });
  const userId = parseId(values.user, '--user');
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
