import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { tableName } from '../../shared/config/data-config';
import type { FeedOutcome as FeedMessageOutcome } from '../../shared/observability/metric-catalog';
import { mediaLogTable } from '../../shared/tables/media-log-table';
import { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { usersTable } from '../../shared/tables/users-table';
import type { MediaLogEntry } from '../model/schemas';
import type { FeedChange, StatusChange } from './feed-messages';
import { MediaLogWriter, type WriteAllOptions, type WriteOutcome } from './entry-writer';
import { StatusWriter } from './status-writer';
import { EntryConflictError, UnknownEntryError } from '../model/errors';
import { Retention } from '../model/retention';

/**
 * Applying what the media pipeline feed asks (DESIGN.md sections 7a and 7b), for the queue consumer
 * and the import alike: each change on its own, one conditional write each, many at once. New
 * entries go first, so a status in the same batch as its request applies instead of waiting for a
 * retry. The import stores its new entries in batches instead (`batchEntries`).
 */

/**
 * What became of one change: `applied` (stored or changed), `ignored` (a duplicate, or a status
 * older than the stored one), `unknown-entry` (a status for an entry not stored yet: retry it),
 * `rejected` (it can never apply: an id already holding another request), `failed` (the write
 * failed; nothing of it is stored: retry it).
 */
export type FeedOutcome = Exclude<FeedMessageOutcome, 'malformed'>;

/** The outcome of one change, with the reason when it did not apply. */
export interface FeedResult {
  readonly outcome: FeedOutcome;
  readonly reason?: string;
}

/** Changes applied at once: each is one small write, so a batch of 100 takes a few round trips. */
export const CHANGES_IN_FLIGHT = 16;

/** The writers the feed uses. */
export interface FeedWriters {
  readonly entries: MediaLogWriter;
  readonly statuses: StatusWriter;
}

/**
 * The feed's writers on `client`, over the media log table the data configuration names (the queue
 * consumer, the import, the bench), with the users table for each new entry's family and the
 * configured retention for its expiry.
 */
export function createFeedWriters(client: DynamoDBDocumentClient): FeedWriters {
  const entries = tableName(mediaLogTable);
  return {
    entries: new MediaLogWriter(client, entries, new UserScopeReader(client, tableName(usersTable)), undefined, Retention.configured()),
    statuses: new StatusWriter(client, entries),
  };
}

/** Options of {@link applyFeedChanges}. */
export interface IngestOptions extends WriteAllOptions {
  /** Store the new entries with the batched writer (an import) instead of one conditional put each (the queue). */
  readonly batchEntries?: boolean;
}

function failure(error: unknown): FeedResult {
  if (error instanceof EntryConflictError) return { outcome: 'rejected', reason: error.detail ?? error.message };
  if (error instanceof UnknownEntryError) return { outcome: 'unknown-entry', reason: error.message };
  return { outcome: 'failed', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

function entryResult(outcome: WriteOutcome | Error): FeedResult {
  return outcome instanceof Error ? failure(outcome) : { outcome: outcome === 'written' ? 'applied' : 'ignored' };
}

async function applyEntries(writers: FeedWriters, entries: readonly { index: number; entry: MediaLogEntry }[], results: FeedResult[], options: IngestOptions): Promise<void> {
  if (entries.length === 0) return;
  if (options.batchEntries === true) {
    const outcomes = await writers.entries.writeAll(entries.map(({ entry }) => entry), options);
    outcomes.forEach((outcome, position) => {
      results[(entries[position] as { index: number }).index] = entryResult(outcome);
    });
    return;
  }
  // The batch's families in one read (a hundred users per BatchGetItem), not one read per message.
  const families = await writers.entries.familiesOf(entries.map(({ entry }) => entry)).catch((error: unknown) => error);
  await mapConcurrently(entries, CHANGES_IN_FLIGHT, async ({ index, entry }) => {
    results[index] = families instanceof Map ? await writers.entries.write(entry, families).then(entryResult, failure) : failure(families);
  });
}

async function applyStatuses(writers: FeedWriters, changes: readonly { index: number; change: StatusChange }[], results: FeedResult[]): Promise<void> {
  // One entry's changes one after another, in message order: the outcome of each (applied, or
  // superseded by one before it) is then the same on every run. Different entries' at once.
  const byEntry = new Map<string, { index: number; change: StatusChange }[]>();
  for (const item of changes) byEntry.set(item.change.id, [...(byEntry.get(item.change.id) ?? []), item]);
  await mapConcurrently([...byEntry.values()], CHANGES_IN_FLIGHT, async (group) => {
    for (const { index, change } of group) {
      results[index] = await writers.statuses.apply(change).then((outcome): FeedResult => ({ outcome }), failure);
    }
  });
}

/**
 * Apply `changes`; the results are in their order. Never throws for one change's failure: each
 * result says what became of its change, so a consumer reports exactly the failed ones for retry.
 */
export async function applyFeedChanges(writers: FeedWriters, changes: readonly FeedChange[], options: IngestOptions = {}): Promise<FeedResult[]> {
  const results = new Array<FeedResult>(changes.length);
  const entries: { index: number; entry: MediaLogEntry }[] = [];
  const statuses: { index: number; change: StatusChange }[] = [];
  changes.forEach((change, index) => {
    if (change.kind === 'entry') entries.push({ index, entry: change.entry });
    else statuses.push({ index, change: { id: change.id, field: change.field, value: change.value, at: change.at } });
  });
  await applyEntries(writers, entries, results, options);
  await applyStatuses(writers, statuses, results);
  return results;
}
