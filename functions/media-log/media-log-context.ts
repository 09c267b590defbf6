import { getDocumentClient } from '../shared/aws/clients';
import { lazy } from '../shared/lazy';
import { mediaLogTable } from '../shared/tables/media-log-table';
import { tableName } from '../shared/tables/table-names';
import { userDirectory } from '../users/user-context';
import { MediaLogListing } from './media-log-listing';
import { MediaLogReader } from './media-log-reader';
import { MediaLogWriter } from './media-log-writer';
import { FamilyScopes } from './scope';

/** The process-wide media log writer, on the shared client. */
export const mediaLogWriter = /* @__PURE__ */ lazy(() => new MediaLogWriter(getDocumentClient(), tableName(mediaLogTable)));

/** The process-wide media log listing. */
export const mediaLogListing = /* @__PURE__ */ lazy(
  () =>
    new MediaLogListing(
      new MediaLogReader(getDocumentClient(), tableName(mediaLogTable)),
      new FamilyScopes(userDirectory()),
    ),
);

/** Forget the writer and the listing, so the next use builds them on the current clients (tests and benches switch databases). */
export function resetMediaLogContext(): void {
  mediaLogWriter.reset();
  mediaLogListing.reset();
}
