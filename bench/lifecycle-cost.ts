import { randomUUID } from 'node:crypto';
import { applyFeedChanges, createFeedWriters } from '../functions/media-log/feed/apply-changes';
import type { FeedChange } from '../functions/media-log/feed/feed-messages';
import { STATUS_FIELDS, type MediaStatus } from '../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { getDocumentClient } from '../functions/shared/aws/clients';
import { tableName } from '../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../functions/shared/tables/media-log-table';
import { foldPendingChanges } from '../local/fold/media-log-fold';
import { attachCapacityMeter, type CapacityTally } from './capacity-meter';
import { lifecycleWriteUnits, type LifecycleWrites } from './key-heat-lifecycle';
import { formatTable, type TargetResult } from './report';

/**
 * One entry lifecycle, a request and its 8 status changes (each status field pending → processing →
 * its final value), written through the media pipeline feed's own path and then counted by the fold
 * on DynamoDB Local, with every write's consumed capacity: the write units a lifecycle costs, as
 * DynamoDB reports them, to set beside what the key-heat bench computes for the same lifecycle.
 */

/** What one lifecycle wrote, in write units: the entries table, each of its indexes, the counters. */
export interface LifecycleUnits {
  readonly table: number;
  readonly indexes: Readonly<Record<string, number>>;
  /** The fold's first stage: its transaction (delta item and watermark) and the delete of the delta. */
  readonly deltas: number;
  readonly counters: number;
  readonly writes: number;
}

/** The lifecycle measured: a request of `user` with the url given, every field ending in `finals`. */
export interface MeasuredLifecycle {
  readonly entry: MediaLogEntry;
  readonly changes: readonly FeedChange[];
  readonly units: LifecycleUnits;
}

/** The write units of a tally, split into the entries table, its indexes and the counters table. */
function unitsOf(tally: CapacityTally): LifecycleUnits {
  const entries = tableName(mediaLogTable);
  return {
    table: tally.tables[entries] ?? 0,
    indexes: Object.fromEntries(Object.entries(tally.indexes).filter(([name]) => name.startsWith(`${entries} `)).map(([name, units]) => [name.slice(entries.length + 1), units])),
    deltas: tally.tables[tableName(mediaLogDeltasTable)] ?? 0,
    counters: tally.tables[tableName(mediaLogCountsTable)] ?? 0,
    writes: ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'].reduce((sum, operation) => sum + (tally.calls[operation] ?? 0), 0),
  };
}

/** A lifecycle's messages: the request (statuses pending), then each field to processing and to its final value, a second apart. */
export function lifecycleChanges(entry: MediaLogEntry, finals: Readonly<Record<(typeof STATUS_FIELDS)[number], MediaStatus>>): FeedChange[] {
  const at = (seconds: number) => new Date(Date.parse(entry.send) + seconds * 1000).toISOString();
  return [
    { kind: 'entry', entry: { ...entry, status: 'pending', 'status-ffscan': 'pending', 'status-mediainfo': 'pending', 'status-scan-report': 'pending' } },
    ...STATUS_FIELDS.flatMap((field, index): FeedChange[] => [
      { kind: 'status', id: entry.id, field, value: 'processing', at: at(1 + index) },
      { kind: 'status', id: entry.id, field, value: finals[field], at: at(10 + index) },
    ]),
  ];
}

/**
 * Write one lifecycle through the feed's writers (the queue consumer's path, one change after the
 * other as the pipeline sends them) and fold it, metering every write. The fold is drained first,
 * so that it counts this lifecycle's records alone.
 */
export async function measureLifecycle(userId = 4242, finals: Readonly<Record<(typeof STATUS_FIELDS)[number], MediaStatus>> = { status: 'success', 'status-ffscan': 'success', 'status-mediainfo': 'success', 'status-scan-report': 'success' }): Promise<MeasuredLifecycle> {
  await foldPendingChanges();
  const entry: MediaLogEntry = {
    id: randomUUID(),
    send: new Date(Date.now() - 60_000).toISOString(),
    url: `https://media.example.com/videos/lifecycle-${randomUUID()}.mp4`,
    'user-id': userId,
    status: 'pending',
    'status-ffscan': 'pending',
    'status-mediainfo': 'pending',
    'status-scan-report': 'pending',
  };
  const changes = lifecycleChanges(entry, finals);
  const meter = attachCapacityMeter(getDocumentClient());
  try {
    const writers = createFeedWriters(getDocumentClient());
    for (const change of changes) {
      const [result] = await applyFeedChanges(writers, [change]);
      if (result?.outcome !== 'applied') throw new Error(`A lifecycle change was not applied: ${result?.outcome} ${result?.reason ?? ''}`);
    }
    await foldPendingChanges();
  } finally {
    meter.detach();
  }
  return { entry, changes, units: unitsOf(meter.take()) };
}

/** A lifecycle measured on DynamoDB Local beside what the key-heat accounting computes for the same writes. */
export interface LifecycleComparison {
  readonly finals: string;
  readonly measured: LifecycleUnits;
  readonly computed: LifecycleWrites;
}

/** The finals of the lifecycles compared: most requests' (all success), and a mixed one. */
const COMPARED_FINALS: readonly Readonly<Record<(typeof STATUS_FIELDS)[number], MediaStatus>>[] = [
  { status: 'success', 'status-ffscan': 'success', 'status-mediainfo': 'success', 'status-scan-report': 'success' },
  { status: 'error', 'status-ffscan': 'error', 'status-mediainfo': 'success', 'status-scan-report': 'warning' },
];

/** Agreement the comparison asks of the two figures (issue target: within 10 %). */
export const LIFECYCLE_AGREEMENT = 0.1;

/**
 * Measure each compared lifecycle on DynamoDB Local (the local environment must be in use) and
 * compute the same entry and changes with {@link lifecycleWriteUnits}, the key-heat bench's accounting.
 */
export async function benchLifecycleCost(): Promise<readonly LifecycleComparison[]> {
  const comparisons: LifecycleComparison[] = [];
  for (const finals of COMPARED_FINALS) {
    const measured = await measureLifecycle(4242, finals);
    const statusChanges = measured.changes.flatMap((change) => (change.kind === 'status' ? [change] : []));
    comparisons.push({ finals: STATUS_FIELDS.map((field) => finals[field]).join('/'), measured: measured.units, computed: lifecycleWriteUnits(measured.entry, statusChanges) });
  }
  return comparisons;
}

const totalOf = (units: LifecycleUnits) => units.table + units.deltas + units.counters + Object.values(units.indexes).reduce((sum, value) => sum + value, 0);
const indexTotalOf = (units: LifecycleUnits) => Object.values(units.indexes).reduce((sum, value) => sum + value, 0);

/** The comparison as the bench prints it: one row per lifecycle and source, split by table, indexes and counters. */
export function formatLifecycleCost(comparisons: readonly LifecycleComparison[]): string {
  const rows = comparisons.flatMap(({ finals, measured, computed }) => [
    [finals, 'measured (DynamoDB Local consumed capacity)', measured.table, indexTotalOf(measured), measured.deltas, measured.counters, totalOf(measured), measured.writes],
    [finals, 'computed (key-heat accounting)', computed.table.units, computed.indexes.units, computed.deltas.units, computed.counters.units, computed.total.units, computed.table.writes + computed.deltas.writes + computed.counters.writes],
  ]);
  const indexes = comparisons.map(({ finals, measured }) => `${finals}: ${Object.entries(measured.indexes).map(([name, units]) => `${name} ${units}`).join(', ')}`);
  return [
    formatTable(['finals', 'source', 'table', 'indexes', 'deltas', 'counters', 'write units', 'write requests'], rows),
    '',
    'indexes, measured:',
    ...indexes,
    'A request and 8 status changes through the feed, then both stages of the fold; the counters table has no item for this user yet.',
  ].join('\n');
}

/** One summary line per lifecycle: measured and computed agree within {@link LIFECYCLE_AGREEMENT}. */
export function lifecycleCostTargets(comparisons: readonly LifecycleComparison[]): TargetResult[] {
  return comparisons.map(({ finals, measured, computed }) => {
    const total = totalOf(measured);
    const gap = Math.abs(total - computed.total.units) / Math.max(total, computed.total.units);
    return {
      bench: `lifecycle ${finals}: write units measured vs computed`,
      target: `within ${LIFECYCLE_AGREEMENT * 100} %`,
      measured: `${total} measured, ${computed.total.units} computed (${(gap * 100).toFixed(1)} % apart)`,
      pass: gap <= LIFECYCLE_AGREEMENT,
    };
  });
}
