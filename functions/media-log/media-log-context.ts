import { getDocumentClient } from '../shared/aws/clients';
import { tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { CursorCodec } from '../shared/listing/cursor';
import { cursorConfig } from '../shared/listing/cursor-config';
import { mediaLogCountsTable, mediaLogTable } from '../shared/tables/media-log-table';
import { UserScopeReader } from '../shared/tables/user-scope-reader';
import { usersTable } from '../shared/tables/users-table';
import type { FeedWriters } from './ingest/feed-ingest';
import { MediaLogWriter } from './ingest/media-log-writer';
import { StatusWriter } from './ingest/status-writer';
import { CounterReader } from './listing/counter-reader';
import { FamilyScopes } from './listing/listing-scope';
import { MediaLogListing } from './listing/media-log-listing';

/** The process-wide media log writer, on the shared client. */
export const mediaLogWriter = /* @__PURE__ */ lazy(() => new MediaLogWriter(getDocumentClient(), tableName(mediaLogTable)));

/** The process-wide status writer of the pipeline feed, on the shared client. */
export const statusWriter = /* @__PURE__ */ lazy(() => new StatusWriter(getDocumentClient(), tableName(mediaLogTable)));

/** The writers the pipeline feed and the import use. */
export function feedWriters(): FeedWriters {
  return { entries: mediaLogWriter(), statuses: statusWriter() };
}

/** The process-wide media log listing. */
export const mediaLogListing = /* @__PURE__ */ lazy(
  () =>
    new MediaLogListing(
      getDocumentClient(),
      tableName(mediaLogTable),
      new CounterReader(getDocumentClient(), tableName(mediaLogTable), tableName(mediaLogCountsTable)),
      new FamilyScopes(new UserScopeReader(getDocumentClient(), tableName(usersTable))),
      new CursorCodec('media-log', cursorConfig().secret),
    ),
);

/** Forget the writer and the listing, so the next use builds them on the current clients (tests and benches switch databases). */
export function resetMediaLogContext(): void {
  mediaLogWriter.reset();
  statusWriter.reset();
  mediaLogListing.reset();
}
