import { getDocumentClient } from '../shared/aws/clients';
import { mediaLogTable } from '../shared/tables/media-log-table';
import { tableName } from '../shared/tables/table-names';
import { usersTable } from '../shared/tables/users-table';
import { UserListRepository } from '../users/user-list-repository';
import { MediaLogListing } from './media-log-listing';
import { MediaLogReader } from './media-log-reader';
import { MediaLogWriter } from './media-log-writer';
import { FamilyScopes } from './scope';

let writer: MediaLogWriter | undefined;
let listing: MediaLogListing | undefined;

/** The process-wide media log writer, on the shared client (built on first use, reused warm). */
export function mediaLogWriter(): MediaLogWriter {
  writer ??= new MediaLogWriter(getDocumentClient(), tableName(mediaLogTable));
  return writer;
}

/** The process-wide media log listing. */
export function mediaLogListing(): MediaLogListing {
  listing ??= new MediaLogListing(
    new MediaLogReader(getDocumentClient(), tableName(mediaLogTable)),
    new FamilyScopes(new UserListRepository(getDocumentClient(), tableName(usersTable))),
  );
  return listing;
}

/** Forget the writer and the listing, so the next use builds them on the current clients (tests and benches switch databases). */
export function resetMediaLogContext(): void {
  writer = undefined;
  listing = undefined;
}
