import { avatarConfig } from '../functions/avatars/avatar-config';
import { AvatarRepository } from '../functions/avatars/avatar-repository';
import { AvatarStorage } from '../functions/avatars/avatar-storage';
import { getDocumentClient, getS3Client } from '../functions/shared/aws/clients';
import { avatarBucketName, tableName } from '../functions/shared/config/data-config';
import { CursorCodec } from '../functions/shared/listing/cursor';
import { cursorConfig } from '../functions/shared/listing/cursor-config';
import { usersTable } from '../functions/shared/tables/users-table';
import { AccountRepository } from '../functions/users/account-repository';
import { UserAccounts } from '../functions/users/user-accounts';
import { UserListRepository } from '../functions/users/user-list-repository';
import { UserListing } from '../functions/users/user-listing';
import { UserRepository } from '../functions/users/user-repository';
import { UserService } from '../functions/users/user-service';

/**
 * The functions' repositories and services as the local tools (the CLI, `invoke`, the benches, the
 * test harness) build them for themselves: anew at each call, on the clients and configuration of
 * that moment, so a tool that has just pointed them at its back-ends (`withData`,
 * `useLocalEnvironment`) works on those.
 */

/** The users of the table. */
export function userRepository(): UserRepository {
  return new UserRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser);
}

/** Full profiles, as the API shows them. */
export function userProfiles(): UserService {
  return new UserService(userRepository());
}

/** The operator's changes of accounts. */
export function userAccounts(): UserAccounts {
  return new UserAccounts(userRepository(), new AccountRepository(getDocumentClient(), tableName(usersTable)));
}

/** The listing of GET /user. */
export function userListing(): UserListing {
  return new UserListing(new UserListRepository(getDocumentClient(), tableName(usersTable)), userRepository(), new CursorCodec('users', cursorConfig().secret));
}

/** The avatar records. */
export function avatarRepository(): AvatarRepository {
  return new AvatarRepository(getDocumentClient(), tableName(usersTable), avatarConfig().maxPerUser);
}

/** The avatar objects. */
export function avatarStorage(): AvatarStorage {
  return new AvatarStorage(getS3Client(), avatarBucketName());
}
