import { bearerRoute } from '../auth/bearer-route';
import { avatarConfig } from '../avatars/avatar-config';
import { getDocumentClient } from '../shared/aws/clients';
import { tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { updateCurrentUserRoute } from './profile-update-routes';
import { UserRepository } from './user-repository';
import { UserService } from './user-service';

/** Profiles, updated under the access rules, on the shared client. */
const profiles = /* @__PURE__ */ lazy(() => new UserService(new UserRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser)));

/** PUT /user/current: update the caller's own first and last name. */
export const handler = bearerRoute(updateCurrentUserRoute, async ({ caller, body, headers }) => {
  const { user, etag } = await profiles().update(caller, 'current', body, headers['if-match']);
  return { statusCode: 200, body: user, headers: { etag } };
});
