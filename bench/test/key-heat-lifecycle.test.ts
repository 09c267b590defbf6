import type { StatusChange } from '../../functions/media-log/feed/feed-messages';
import { mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { lifecycleWriteUnits, perLifecycle, typicalLifecycle } from '../key-heat-lifecycle';

/**
 * One lifecycle computed alone, worked out by hand from the design rules: a put enters the table
 * and every index but the family's (a top user's entry; a sub user's enters the family's too); a
 * field's first change moves it from `pending` to `processing` in its own status index (a delete
 * and a put); a final `success` takes it out (a delete); a final `warning` moves it again (a delete
 * and a put); the fold's first stage writes one delta item and its shard's watermark in a
 * transaction (two units each) and the second stage deletes the delta (one unit); the second stage
 * writes 4 fresh counter items once (5 for a sub user's: its family's month).
 */

// Targets the lifecycle wrote (the tally lists every index of the table, those it left alone at 0).
const byTarget = (writes: ReturnType<typeof lifecycleWriteUnits>) => Object.fromEntries(writes.targets.filter((target) => target.writes > 0).map((target) => [target.target, target.units]));
const index = (name: string) => `${mediaLogTable.id} ${name}`;

describe('the write units of one lifecycle', () => {
  it('costs 37 units for a request whose four fields go pending → processing → success', () => {
    const { entry, changes } = typicalLifecycle();

    const writes = lifecycleWriteUnits(entry, changes);

    expect(byTarget(writes)).toEqual({
      [mediaLogTable.id]: 9,
      [index('log-by-send')]: 1,
      [index('user-by-send')]: 1,
      [index('url-by-send')]: 1,
      [index('status-by-send')]: 1 + 2 + 1,
      [index('ffscan-status-by-send')]: 4,
      [index('mediainfo-status-by-send')]: 4,
      [index('scan-report-status-by-send')]: 4,
      // The delta item and the watermark in a transaction, then the delete of the delta.
      [mediaLogDeltasTable.id]: 2 + 2 + 1,
      // The whole log's month, day and hour, and the user's month.
      [mediaLogCountsTable.id]: 4,
    });
    expect(writes.table).toEqual({ writes: 9, units: 9 });
    expect(writes.indexes).toEqual({ writes: 19, units: 19 });
    expect(writes.deltas).toEqual({ writes: 3, units: 5 });
    expect(writes.counters).toEqual({ writes: 4, units: 4 });
    expect(writes.total).toEqual({ writes: 35, units: 37 });
  });

  it('costs a sub user’s request 2 units more: its family’s index item and month counter', () => {
    const { entry, changes } = typicalLifecycle();

    const writes = lifecycleWriteUnits(entry, changes, entry['user-id'] + 1);

    expect(byTarget(writes)[index('family-by-send')]).toBe(1);
    expect(writes.indexes).toEqual({ writes: 20, units: 20 });
    expect(writes.counters).toEqual({ writes: 5, units: 5 });
    expect(writes.total).toEqual({ writes: 37, units: 39 });
  });

  it('moves an entry ending in warning into the warning partition: one index write more', () => {
    const { entry, changes } = typicalLifecycle();
    const warning = changes.map((change): StatusChange => (change.field === 'status-ffscan' && change.value === 'success' ? { ...change, value: 'warning' } : change));

    const writes = lifecycleWriteUnits(entry, warning);

    expect(byTarget(writes)[index('ffscan-status-by-send')]).toBe(1 + 2 + 2);
    expect(writes.total.units).toBe(38);
  });

  it('writes only the table for a final value equal to the one stored', () => {
    const { entry, changes } = typicalLifecycle();
    const stillProcessing = changes.map((change): StatusChange => (change.field === 'status-mediainfo' ? { ...change, value: 'processing' } : change));

    const writes = lifecycleWriteUnits(entry, stillProcessing);

    expect(byTarget(writes)[index('mediainfo-status-by-send')]).toBe(1 + 2);
    expect(writes.table.writes).toBe(9);
  });

  it('divides a tally by the lifecycles it holds, grouped as table, indexes and counters', () => {
    const totals = new Map([
      [mediaLogTable.id, { writes: 18, units: 18 }],
      [index('log-by-send'), { writes: 2, units: 2 }],
      [mediaLogCountsTable.id, { writes: 3, units: 12 }],
    ]);

    const half = perLifecycle(totals, 2);

    expect(half.table).toEqual({ writes: 9, units: 9 });
    expect(half.indexes).toEqual({ writes: 1, units: 1 });
    expect(half.counters).toEqual({ writes: 1.5, units: 6 });
    expect(half.total).toEqual({ writes: 11.5, units: 16 });
  });
});
