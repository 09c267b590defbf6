import type { Caller } from '../../functions/shared/access/roles';
import { parseInput } from '../../functions/shared/validation/issues';
import { ListUsersQuerySchema } from '../../functions/users/list-schemas';
import type { UserSummary } from '../../functions/users/schemas';
import { parseCommand, parseUserId } from './arguments';
import { UsageError } from './cli-errors';
import { withData } from './data-access';
import { markMove, moveUserEntries, stillMoving } from './family-commands';
import { avatarStorage, userAccounts, userListing, userProfiles } from '../tool-composition';

/** The family of a user in the media log: its parent, or itself (DESIGN.md 7b, round five). */
function topUserOf(user: { readonly id: number; readonly parent: { readonly id: number } | null }): number {
  return user.parent?.id ?? user.id;
}

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
    const before = topUserOf(await userProfiles().describe(id));
    // The family a new parent (or none) makes: marked before the update, so that no listing of either family shows the user's entries in the wrong one meanwhile.
    const target = parent === undefined ? before : (parent ?? id);
    const moving = target !== before ? await markMove(id, before, target) : undefined;
    const update = userAccounts().update(id, {
      ...(values.status === undefined ? {} : { status: values.status as never }),
      ...(values.role === undefined ? {} : { role: values.role as never }),
      ...(parent === undefined ? {} : { parent }),
      ...(values['first-name'] === undefined ? {} : { 'first-name': values['first-name'] }),
      ...(values['last-name'] === undefined ? {} : { 'last-name': values['last-name'] }),
    });
    await update.catch(async (error: unknown) => {
      await moving?.cancel();
      throw error;
    });
    const after = await userProfiles().describe(id);
    // The user's media log entries follow it to its new family's partitions and counters.
    if (topUserOf(after) !== before) await moveUserEntries(id, before, topUserOf(after));
    else await moving?.cancel();
    return after;
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
  const user = await withData(async () => {
    const found = await userProfiles().describe(id);
    if (await stillMoving(id, topUserOf(found))) process.stderr.write(`the media log entries of user ${id} are still moving to family ${topUserOf(found)}; until done, its families' listings leave them out\n`);
    return found;
  });
  process.stdout.write(`${JSON.stringify(user, null, 2)}\n`);
}

/** The operator as a listing caller: every user is in a root caller's scope. */
const OPERATOR: Caller = { userId: 0, role: 'root', parentId: null };

/** Users fetched per page while `user list` walks the listing by cursor. */
const LIST_PAGE = 100;

/**
 * `user list [--role R] [--status S]`: every user (of those roles and statuses, each a value or a
 * comma-separated list, as on GET /user), sorted by id, as a JSON array of user summaries.
 */
export async function userList(args: string[]): Promise<void> {
  const { values } = parseCommand(args, { role: { type: 'string' }, status: { type: 'string' } });
  const filters = { ...(values.role === undefined ? {} : { role: values.role }), ...(values.status === undefined ? {} : { status: values.status }) };
  const users = await withData(async () => {
    const found: UserSummary[] = [];
    let cursor: string | null = null;
    do {
      const pagination: Record<string, string> = cursor === null ? { limit: String(LIST_PAGE) } : { limit: String(LIST_PAGE), cursor };
      const page = await userListing().list(OPERATOR, parseInput(ListUsersQuerySchema, { ...filters, pagination }, 'query'));
      found.push(...page.users);
      cursor = page.pagination.next;
    } while (cursor !== null);
    return found;
  });
  process.stdout.write(`${JSON.stringify(users, null, 2)}\n`);
}
