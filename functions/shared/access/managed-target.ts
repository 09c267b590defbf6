import { getDocumentClient } from '../aws/clients';
import { tableName } from '../config/data-config';
import { NotFoundError } from '../errors';
import { lazy } from '../lazy';
import { accessTargetOf, readProfile } from '../tables/user-partition';
import { usersTable } from '../tables/users-table';
import { canManage } from './access-policy';
import type { StoredCaller } from './roles';

/**
 * The user a request's path names (`{user-id}`, shared/validation/user-id.ts), checked against the
 * caller as both are stored now, with one read of that user's profile: where nothing else of that
 * user is read (a replayed answer, an upload form), this is the object-level check.
 */

/** The profile reads of the check, on the shared client. */
const users = /* @__PURE__ */ lazy(() => ({ client: getDocumentClient(), table: tableName(usersTable) }));

/**
 * Checks that `caller` manages the user `path` names, as stored now. A path that names no user
 * (a route about the caller's own data) needs nothing more than the caller resolved.
 *
 * @throws NotFoundError (404) when that user is gone or outside the caller's scope: exactly the
 *   answer a user that does not exist gets, so ids cannot be probed.
 */
export async function checkManagedTarget(caller: StoredCaller, path: unknown): Promise<void> {
  const target = (path as { readonly 'user-id'?: unknown } | null | undefined)?.['user-id'];
  if (typeof target !== 'number' || target === caller.userId) return;
  const { client, table } = users();
  const profile = await readProfile(client, table, target);
  if (profile === null || !canManage(caller, accessTargetOf(target, profile))) throw new NotFoundError('No such user.');
}
