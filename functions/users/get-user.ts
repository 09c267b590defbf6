import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from '../avatars/avatar-config';
import { getDocumentClient } from '../shared/aws/clients';
import { tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { getUserRoute } from './profile-routes';
import { UserRepository } from './user-repository';
import { UserService } from './user-service';

/** Profiles, read under the access rules, on the shared client. */
const profiles = /* @__PURE__ */ lazy(() => new UserService(new UserRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser)));

/** GET /user/{user-id}: the profile of a user the caller manages. */
export const handler = bearerRoute(getUserRoute, async ({ caller, path }) => {
  const { user, etag } = await profiles().get(caller, path['user-id']);
  return { statusCode: 200, body: user, headers: { etag } };
});
