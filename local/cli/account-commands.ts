import { avatarStorage } from '../../functions/avatars/avatar-context';
import { userAccounts, userService } from '../../functions/users/user-context';
import { parseCommand, parseUserId } from './arguments';
import { UsageError } from './cli-errors';
import { withData } from './data-access';

/** The id positional of `user update|delete|get ID`. */
function userIdArgument(positionals: readonly string[], command: string): number {
  const id = parseUserId(positionals[0], `user ${command}`);
  if (id === undefined) throw new UsageError(`user ${command} takes a user ID.`);
  return id;
}

/** `user update ID [--status S] [--role R] [--parent ID|none] [--first-name F] [--last-name L]`: prints the User. */
export async function userUpdate(args: string[]): Promise<void> {
  const { values, positionals } = parseCommand(
    args,
    { status: { type: 'string' }, role: { type: 'string' }, parent: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } },
    1,
  );
  const id = userIdArgument(positionals, 'update');
  const parent = values.parent === undefined ? undefined : values.parent === 'none' ? null : parseUserId(values.parent, '--parent');
  const user = await withData(async () => {
    await userAccounts().update(id, {
      ...(values.status === undefined ? {} : { status: values.status as never }),
      ...(values.role === undefined ? {} : { role: values.role as never }),
      ...(parent === undefined ? {} : { parent }),
      ...(values['first-name'] === undefined ? {} : { 'first-name': values['first-name'] }),
      ...(values['last-name'] === undefined ? {} : { 'last-name': values['last-name'] }),
    });
    return userService().describe(id);
  });
  process.stdout.write(`${JSON.stringify(user, null, 2)}\n`);
}

/** `user delete ID`: removes the user, its claims, its avatar records and their image objects. */
export async function userDelete(args: string[]): Promise<void> {
  const { positionals } = parseCommand(args, {}, 1);
  const id = userIdArgument(positionals, 'delete');
  const removed = await withData(async () => {
    const { user, avatars } = await userAccounts().remove(id);
    // The records are gone; their objects follow (the daily reconciler catches any this misses).
    await Promise.all(avatars.map((avatar) => avatarStorage().delete(avatar.objectKey)));
    return { id: user.id, email: user.email, avatarsDeleted: avatars.length };
  });
  process.stdout.write(`${JSON.stringify(removed, null, 2)}\n`);
}

/** `user get ID`: prints the User. */
export async function userGet(args: string[]): Promise<void> {
  const { positionals } = parseCommand(args, {}, 1);
  const id = userIdArgument(positionals, 'get');
  const user = await withData(() => userService().describe(id));
  process.stdout.write(`${JSON.stringify(user, null, 2)}\n`);
}
