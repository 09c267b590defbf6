import type { StatusChange } from '../functions/media-log/feed/feed-messages';
import type { EntryChange } from '../functions/media-log/fold/stream-changes';
import { STATUS_FIELDS } from '../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../functions/shared/tables/media-log-table';
import { CounterTable } from './key-heat-counters';
import { EntryWrites } from './key-heat-entries';
import { DeltaStages, deltaStreamOptions } from './key-heat-deltas';
import { sequenceOf, shardIdOf, streamOptions } from './key-heat-stream';
import { WriteTally, type WriteTotal } from './key-heat-writes';

/**
 * The writes of one entry lifecycle (its request and its status changes, then the fold's share), by
 * the same accounting as the `key-heat` simulation: what DynamoDB Local's consumed capacity reports
 * for the same writes, so the two can be compared.
 */

/** Writes and write units of a lifecycle: per table and index, and summed by kind. */
export interface LifecycleWrites {
  /** The media log table, each of its indexes (`MediaLog <index>`), and the counters table, as written. */
  readonly targets: readonly ({ readonly target: string } & WriteTotal)[];
  readonly table: WriteTotal;
  readonly indexes: WriteTotal;
  /** The fold's first stage: delta items and watermarks (in transactions), and their deletes. */
  readonly deltas: WriteTotal;
  readonly counters: WriteTotal;
  readonly total: WriteTotal;
}

/** Where a target is listed: the table, then its indexes (in the order written), then the deltas, then the counters. */
function rank(target: string): number {
  return target === mediaLogTable.id ? 0 : target.startsWith(`${mediaLogTable.id} `) ? 1 : target === mediaLogDeltasTable.id ? 2 : 3;
}

/** The writes of `totals` divided by `lifecycles`, grouped as {@link LifecycleWrites}. */
export function perLifecycle(totals: ReadonlyMap<string, WriteTotal>, lifecycles: number): LifecycleWrites {
  const targets = [...totals].sort(([a], [b]) => rank(a) - rank(b)).map(([target, total]) => ({ target, writes: total.writes / lifecycles, units: total.units / lifecycles }));
  const sum = (kind: (target: string) => boolean): WriteTotal =>
    targets.filter(({ target }) => kind(target)).reduce((total, { writes, units }) => ({ writes: total.writes + writes, units: total.units + units }), { writes: 0, units: 0 });
  return {
    targets,
    table: sum((target) => target === mediaLogTable.id),
    indexes: sum((target) => target.startsWith(`${mediaLogTable.id} `)),
    deltas: sum((target) => target === mediaLogDeltasTable.id),
    counters: sum((target) => target === mediaLogCountsTable.id),
    total: sum(() => true),
  };
}

/**
 * The writes of ONE lifecycle: the put of `entry`, the update of each of `changes` in the order
 * given, then one batch of each fold stage holding only this lifecycle's records (its delta item and
 * watermark, then the counters and the delete of the delta), on a counters table with no item yet
 * (as a lifecycle fed to an empty DynamoDB Local and folded once). Table writes cost
 * ceil(max(old, new item size) / 1 KB), index writes 1 per KB of the index item, counter writes
 * ceil(max(old, new) / 1 KB). The entry's user heads its own family unless `familyId` says otherwise
 * (a sub user's entry is indexed and counted in its family as well).
 */
export function lifecycleWriteUnits(entry: MediaLogEntry, changes: readonly StatusChange[], familyId: number = entry['user-id']): LifecycleWrites {
  const tally = new WriteTally();
  const records: EntryChange[] = [];
  const writes = new EntryWrites(tally, {
    record: (_key, _ms, _bytes, before, after) => records.push({ sequence: sequenceOf(0, 0, records.length + 1), ...(before ? { before } : {}), after }),
  });
  writes.request(entry, Date.parse(entry.send), familyId);
  for (const change of changes) writes.change(change, Date.parse(change.at));
  const foldedAt = Math.ceil(Math.max(Date.parse(entry.send), ...changes.map((change) => Date.parse(change.at))) / 1000) * 1000;
  // One first-stage batch of these records alone, and the one second-stage batch of its deltas.
  const stages = new DeltaStages(tally, new CounterTable(tally), deltaStreamOptions(streamOptions(0), 1), () => 0);
  stages.fold({ shardId: shardIdOf(0, 0), records, atMs: foldedAt });
  stages.stream.advanceTo(foldedAt + 3_600_000);
  return perLifecycle(tally.totals, 1);
}

/**
 * The lifecycle of most requests: all four statuses pending, then each field processing and then
 * success (a field's changes a second apart, the fields in turn).
 */
export function typicalLifecycle(): { readonly entry: MediaLogEntry; readonly changes: readonly StatusChange[] } {
  const sent = Date.parse('2026-03-10T12:00:00.250Z');
  const entry: MediaLogEntry = {
    id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0',
    send: new Date(sent).toISOString(),
    url: 'https://media.example.com/videos/a.mp4',
    'user-id': 7,
    status: 'pending',
    'status-ffscan': 'pending',
    'status-mediainfo': 'pending',
    'status-scan-report': 'pending',
  };
  const at = (seconds: number) => new Date(sent + seconds * 1000).toISOString();
  const changes = STATUS_FIELDS.flatMap((field, index): StatusChange[] => [
    { id: entry.id, field, value: 'processing', at: at(1 + 2 * index) },
    { id: entry.id, field, value: 'success', at: at(2 + 2 * index) },
  ]);
  return { entry, changes };
}
