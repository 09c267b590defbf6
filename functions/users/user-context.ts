import { presentAvatar } from '../avatars/avatar-presenter';
import { getDocumentClient } from '../shared/aws/clients';
import { usersTable } from '../shared/tables/users-table';
import { tableName } from '../shared/tables/table-names';
import { UserListRepository } from './user-list-repository';
import { UserListing } from './user-listing';
import { UserRepository } from './user-repository';
import { UserService } from './user-service';

let service: UserService | undefined;
let repository: UserRepository | undefined;

/** The process-wide users repository, on the shared client (built on first use, reused warm). */
export function userRepository(): UserRepository {
  repository ??= new UserRepository(getDocumentClient(), tableName(usersTable));
  return repository;
}

/** The process-wide user service. */
export function userService(): UserService {
  service ??= new UserService(userRepository(), presentAvatar);
  return service;
}

let listing: UserListing | undefined;

/** The process-wide user listing. */
export function userListing(): UserListing {
  listing ??= new UserListing(new UserListRepository(getDocumentClient(), tableName(usersTable)), userRepository());
  return listing;
}
