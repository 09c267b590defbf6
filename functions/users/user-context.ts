import { tableName } from '../shared/config/data-config';
import { avatarConfig } from '../avatars/avatar-config';
import { CursorCodec } from '../shared/listing/cursor';
import { cursorConfig } from '../shared/listing/cursor-config';
import { getDocumentClient } from '../shared/aws/clients';
import { lazy } from '../shared/lazy';
import { UserPartitionReader } from '../shared/tables/user-partition';
import { usersTable } from '../shared/tables/users-table';
import { UserListRepository } from './user-list-repository';
import { AccountRepository } from './account-repository';
import { UserAccounts } from './user-accounts';
import { UserDirectory } from './user-directory';
import { UserListing } from './user-listing';
import { UserRepository } from './user-repository';
import { UserService } from './user-service';

/** The process-wide users repository, on the shared client. */
export const userRepository = /* @__PURE__ */ lazy(
  () => new UserRepository(getDocumentClient(), tableName(usersTable), new UserPartitionReader(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser)),
);

/** The process-wide user service. */
export const userService = /* @__PURE__ */ lazy(() => new UserService(userRepository()));

/** The process-wide user listing. */
export const userListing = /* @__PURE__ */ lazy(
  () => new UserListing(new UserListRepository(getDocumentClient(), tableName(usersTable)), userRepository(), new CursorCodec('users', cursorConfig().secret)),
);

/** The process-wide user directory (families and root users, for the media log's scopes). */
export const userDirectory = /* @__PURE__ */ lazy(() => new UserDirectory(new UserListRepository(getDocumentClient(), tableName(usersTable))));

/** The process-wide operator changes of accounts (the CLI). */
export const userAccounts = /* @__PURE__ */ lazy(() => new UserAccounts(userRepository(), new AccountRepository(getDocumentClient(), tableName(usersTable))));
