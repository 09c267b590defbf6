import { presentAvatar } from '../avatars/avatar-presenter';
import { getDocumentClient } from '../shared/aws/clients';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { tableName } from '../shared/tables/table-names';
import { UserListRepository } from './user-list-repository';
import { UserListing } from './user-listing';
import { UserRepository } from './user-repository';
import { UserService } from './user-service';

/** The process-wide users repository, on the shared client. */
export const userRepository = /* @__PURE__ */ lazy(() => new UserRepository(getDocumentClient(), tableName(usersTable)));

/** The process-wide user service. */
export const userService = /* @__PURE__ */ lazy(() => new UserService(userRepository(), presentAvatar));

/** The process-wide user listing. */
export const userListing = /* @__PURE__ */ lazy(() => new UserListing(new UserListRepository(getDocumentClient(), tableName(usersTable)), userRepository()));
