import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from '../avatars/avatar-config';
import { getDocumentClient } from '../shared/aws/clients';
import { tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { CursorCodec } from '../shared/listing/cursor';
import { cursorConfig } from '../shared/listing/cursor-config';
import { usersTable } from '../shared/tables/users-table';
import { listUsersRoute } from './list-route';
import { UserListRepository } from './user-list-repository';
import { UserListing } from './user-listing';
import { UserRepository } from './user-repository';

/** The listing of users, on the shared client; a sub user's listing reads its own profile. */
const listing = /* @__PURE__ */ lazy(() => {
  const client = getDocumentClient();
  const table = tableName(usersTable);
  return new UserListing(new UserListRepository(client, table), new UserRepository(client, table, avatarConfig().maxPerUser), new CursorCodec('users', cursorConfig().secret));
});

/** GET /user: the users in the caller's scope, filtered, sorted and paginated. */
export const handler = bearerRoute(listUsersRoute, async ({ caller, query }) => ({
  statusCode: 200,
  body: await listing().list(caller, query),
}));
