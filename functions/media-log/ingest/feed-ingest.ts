import { ConflictError } from '../../shared/errors';
import type { FeedOutcome as FeedMessageOutcome } from '../../shared/observability/metric-catalog';
import type { MediaLogEntry } from '../schemas';
import type { FeedChange, StatusChange } from './feed-messages';
import type { MediaLogWriter, WriteAllOptions } from './media-log-writer';
import { UnknownEntryError, type StatusWriter } from './status-writer';

/**
 * Applying what the media pipeline feed asks (DESIGN.md section 7a), for the queue consumer and
 * the import alike: new entries first, in batched transactions, then status changes, each its own
 * transaction, one entry's changes one after the other and different entries' at once.
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

/** Status changes of different entries applied at once. */
export const STATUS_CHANGES_IN_FLIGHT = 8;

/** The writers the feed uses. */
export interface FeedWriters {
  readonly entries: MediaLogWriter;
  readonly statuses: StatusWriter;
}

function failure(error: unknown): FeedResult {
  if (error instanceof ConflictError) return { outcome: 'rejected', reason: error.detail ?? error.message };
  if (error instanceof UnknownEntryError) return { outcome: 'unknown-entry', reason: error.message };
  return { outcome: 'failed', reason: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

async function applyEntries(writers: FeedWriters, entries: readonly { index: number; entry: MediaLogEntry }[], results: FeedResult[], options: WriteAllOptions): Promise<void> {
  if (entries.length === 0) return;
  try {
    const outcomes = await writers.entries.writeAll(entries.map(({ entry }) => entry), options);
    outcomes.forEach((outcome, position) => {
      const { index } = entries[position] as { index: number };
      results[index] = outcome instanceof Error ? failure(outcome) : { outcome: outcome === 'written' ? 'applied' : 'ignored' };
    });
  } catch (error) {
    for (const { index } of entries) results[index] = failure(error);
  }
}

async function applyStatuses(writers: FeedWriters, changes: readonly { index: number; change: StatusChange }[], results: FeedResult[]): Promise<void> {
  const byEntry = new Map<string, { index: number; change: StatusChange }[]>();
  for (const item of changes) byEntry.set(item.change.id, [...(byEntry.get(item.change.id) ?? []), item]);
  const queue = [...byEntry.values()];
  const worker = async (): Promise<void> => {
    for (let group = queue.shift(); group !== undefined; group = queue.shift()) {
      for (const { index, change } of group) {
        try {
          results[index] = { outcome: await writers.statuses.apply(change) };
        } catch (error) {
          results[index] = failure(error);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STATUS_CHANGES_IN_FLIGHT, queue.length) }, worker));
}

/**
 * Apply `changes`; the results are in their order. Never throws for one change's failure: each
 * result says what became of its change, so a consumer reports exactly the failed ones for retry.
 */
export async function ingestFeedChanges(writers: FeedWriters, changes: readonly FeedChange[], options: WriteAllOptions = {}): Promise<FeedResult[]> {
  const results = new Array<FeedResult>(changes.length);
  const entries: { index: number; entry: MediaLogEntry }[] = [];
  const statuses: { index: number; change: StatusChange }[] = [];
  changes.forEach((change, index) => {
    if (change.kind === 'entry') entries.push({ index, entry: change.entry });
    else statuses.push({ index, change: { id: change.id, field: change.field, value: change.value, at: change.at } });
  });
  // Requests first: a status in the same batch as its request applies instead of waiting for a retry.
  await applyEntries(writers, entries, results, options);
  await applyStatuses(writers, statuses, results);
  return results;
}
