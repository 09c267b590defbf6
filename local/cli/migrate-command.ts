import { DescribeTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { RateLimiter } from 'limiter';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { createFeedWriters } from '../../functions/media-log/feed/apply-changes';
import type { StatusWriter } from '../../functions/media-log/feed/status-writer';
import { mapConcurrently } from '../../functions/shared/async/map-concurrently';
import { parallelScan, scanShape } from '../../functions/shared/tables/parallel-scan';
import { STATUS_FIELDS, MEDIA_STATUSES, type MediaStatus, type StatusField } from '../../functions/media-log/model/entry-fields';
import type { StatusStamps } from '../../functions/media-log/model/entry-item';
import { STATUS_STORAGE } from '../../functions/media-log/model/keys';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { parseCommand } from './arguments';
import { UsageError } from './cli-errors';
import { waitForFold, withData } from './data-access';
import { progressBar } from './progress';

/**
 * `media-log migrate --from TABLE [--rate N]`: copy the entries of a media log table of the previous layout
 * (one item per entry under `ENTRY#<id>` / `ENTRY`, its statuses in every index) into this
 * layout's table, through the one writer of entries, with the time each status was set. Running it
 * again copies nothing twice (the writer checks every id first); the fold counts what it copies.
 * At most `--rate` entries a second (default {@link MIGRATE_DEFAULT_RATE}), with a progress bar;
 * then it waits, with a progress bar per stage, until both stages of the fold have counted what it
 * copied (on their measured progress: local/fold/fold-progress.ts; locally it drains the fold).
 * docs/operations.md, "Upgrading the media log" says when to run it.
 */

/** Entries copied per round at most: the writer checks and stores them in batches. */
const ROUND = 2000;

/**
 * Entries copied per second unless `--rate` says otherwise: a quarter of the design rate's 2,000
 * requests/s (about 2,500 write units/s with their index items), so that a copy beside the running
 * feed leaves the new tables' warm throughput (functions/shared/tables/media-log-table.ts) to it.
 */
export const MIGRATE_DEFAULT_RATE = 500;
/** The highest `--rate`: the new entries table's warm write units, all of them. */
const MAX_RATE = 18_000;
/**
 * The longest migrate waits for the fold once it has copied: what it copied at its rate is folded
 * within seconds by a fold that keeps up; a fold still behind after this is an incident, said with
 * how far behind each stage is (the copy is done, and running it again copies nothing twice).
 */
const MIGRATE_FOLD_WAIT_SECONDS = 600;
/** Status writes in flight at once when statuses of entries already present are brought up. */
const STATUS_WRITES_IN_FLIGHT = 8;
/** Segments of the parallel Scan of the previous table read at once (the rate limits the copy anyway). */
const SCAN_WORKERS = 4;

/** The previous layout's item of one entry: its attributes, as the previous release stored them. */
interface PreviousItem {
  readonly pk?: unknown;
  readonly sk?: unknown;
  readonly id?: unknown;
  readonly send?: unknown;
  readonly url?: unknown;
  readonly userId?: unknown;
  readonly [attribute: string]: unknown;
}

const isStatus = (value: unknown): value is MediaStatus => typeof value === 'string' && (MEDIA_STATUSES as readonly string[]).includes(value);

/** The entry and status times a previous item holds, or why it is not an entry (the previous table held entries only; anything else is skipped and counted). */
export function entryOfPreviousItem(item: PreviousItem): { entry: MediaLogEntry; stamps: StatusStamps } | string {
  if (typeof item.pk !== 'string' || !item.pk.startsWith('ENTRY#') || item.sk !== 'ENTRY') return 'not an entry item';
  const { id, send, url, userId } = item;
  if (typeof id !== 'string' || typeof send !== 'string' || typeof url !== 'string' || typeof userId !== 'number') return 'an entry item without its id, send, url or user';
  const statuses = {} as Record<StatusField, MediaStatus>;
  const stamps = {} as Record<StatusField, string>;
  for (const field of STATUS_FIELDS) {
    const value = item[STATUS_STORAGE[field].attribute];
    const at = item[STATUS_STORAGE[field].changedAt];
    if (!isStatus(value)) return `an entry item without a ${field}`;
    statuses[field] = value;
    stamps[field] = typeof at === 'string' ? at : send;
  }
  return { entry: { id, send, url, 'user-id': userId, ...statuses }, stamps };
}

/**
 * The statuses of entries the new table holds already (the feed stored their request again while
 * the copy ran, or an earlier run copied them), brought up to the previous table's: each field's
 * value goes through the feed's status writer with the time it was set there, so the later of the
 * two wins, as for any status message, and a request stored again as `pending` cannot hide the
 * previous table's final statuses. Returns how many could not be written.
 */
async function bringStatusesUp(statuses: StatusWriter, present: readonly { entry: MediaLogEntry; stamps: StatusStamps }[]): Promise<number> {
  const changes = present.flatMap(({ entry, stamps }) => STATUS_FIELDS.map((field) => ({ id: entry.id, field, value: entry[field], at: stamps[field] })));
  const failed = await mapConcurrently(changes, STATUS_WRITES_IN_FLIGHT, (change) => statuses.apply(change).then(() => 0, () => 1));
  return new Set(changes.filter((_, index) => failed[index] === 1).map((change) => change.id)).size;
}

/** `--rate N`: entries copied per second, a whole number from 1 to {@link MAX_RATE}; {@link MIGRATE_DEFAULT_RATE} when absent. */
function parseRate(raw: string | undefined): number {
  if (raw === undefined) return MIGRATE_DEFAULT_RATE;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_RATE) throw new UsageError(`--rate takes entries per second, a whole number from 1 to ${MAX_RATE} (default ${MIGRATE_DEFAULT_RATE}).`);
  return Number(raw);
}

/** `media-log migrate --from TABLE [--rate N]`: see the module comment. */
export async function mediaLogMigrate(args: string[]): Promise<void> {
  const { values } = parseCommand(args, { from: { type: 'string' }, rate: { type: 'string' } });
  const from = values.from;
  if (from === undefined || !/^[\w.-]{3,255}$/.test(from)) throw new UsageError('media-log migrate takes --from TABLE, the name of the media log table of the previous layout.');
  const rate = parseRate(values.rate);
  // A token per entry, refilled at `rate` a second: each round takes its entries' tokens before it is written.
  const limiter = new RateLimiter({ tokensPerInterval: rate, interval: 'second' });
  const roundSize = Math.min(ROUND, rate);
  const totals = await withData(async () => {
    const writers = createFeedWriters(getDocumentClient());
    // The item count DynamoDB keeps (refreshed about every six hours in AWS): a progress bar's total, no more.
    const { Table } = await getDocumentClient()
      .send(new DescribeTableCommand({ TableName: from }))
      .catch((error: unknown) => {
        if (error instanceof ResourceNotFoundException) throw new Error(`there is no table ${from} to copy entries from.`);
        throw error;
      });
    const bar = progressBar('migrate', Table?.ItemCount ?? 0);
    let done = 0;
    const sums = { written: 0, present: 0, skipped: 0, failed: 0 };
    try {
      // Each page is copied in rounds before its worker reads on.
      await parallelScan(getDocumentClient(), { TableName: from }, scanShape(Table?.TableSizeBytes, SCAN_WORKERS), async (items) => {
        let round: { entry: MediaLogEntry; stamps: StatusStamps }[] = [];
        const flush = async () => {
          await limiter.removeTokens(round.length);
          const results = await writers.entries.writeAll(round.map(({ entry }) => entry), { stamps: new Map(round.map(({ entry, stamps }) => [entry.id, stamps])) });
          const present: { entry: MediaLogEntry; stamps: StatusStamps }[] = [];
          results.forEach((result, index) => {
            if (result === 'written') sums.written += 1;
            else if (result === 'unchanged') present.push(round[index] as (typeof round)[number]);
            else sums.failed += 1;
          });
          sums.present += present.length;
          sums.failed += await bringStatusesUp(writers.statuses, present);
          bar.update((done += round.length));
          round = [];
        };
        for (const item of items) {
          const read = entryOfPreviousItem(item);
          if (typeof read === 'string') sums.skipped += 1;
          else round.push(read);
          if (round.length >= roundSize) await flush();
        }
        if (round.length > 0) await flush();
      });
    } finally {
      bar.stop();
    }
    await waitForFold('migrate', MIGRATE_FOLD_WAIT_SECONDS);
    return sums;
  });
  process.stdout.write(`${totals.written} entries copied, ${totals.present} already present, ${totals.skipped} items skipped (not entries)${totals.failed > 0 ? `, ${totals.failed} failed` : ''}\n`);
  if (totals.failed > 0) throw new Error(`${totals.failed} entries could not be copied (an id holding another request, or a write that kept failing): run the migration again.`);
}
