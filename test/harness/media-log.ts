import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { foldPendingChanges } from '../../local/fold/media-log-fold';

/**
 * Counting what a test wrote to the media log, as the stack's event source mapping would: the
 * fold runs on the test database's stream up to its end. Totals are exact once it returns.
 */
export async function foldLog(): Promise<void> {
  await foldPendingChanges();
}

/** Store entries with the import's batched writer, then fold them into the counters. */
export async function storeEntries(entries: readonly MediaLogEntry[]): Promise<void> {
  await writeMediaLogEntries(entries);
  await foldLog();
}
