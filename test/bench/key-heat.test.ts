import { entryItem } from '../../functions/media-log/model/entry-item';
import { mediaLogKeys, STATUS_STORAGE } from '../../functions/media-log/model/keys';
import type { StatusChange } from '../../functions/media-log/feed/feed-messages';
import type { MediaStatus, StatusField } from '../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import type { TableDefinition } from '../../functions/shared/tables/table-definition';
import { CounterFold, statusSet, streamShards } from '../../bench/key-heat-designs';
import { benchKeyHeat, keyHeatTargets, type KeyHeatResult } from '../../bench/key-heat';
import { PIPELINE_TRAFFIC, pipelineTraffic, type TrafficOptions } from '../../bench/key-heat-traffic';
import { TableWriter, WriteTally, type MutableItem } from '../../bench/key-heat-writes';

/**
 * The key-heat bench's arithmetic at a scale small enough to work out by hand: 10 entries/s, each
 * field going to processing exactly 1 s after the request and to its final value 1 s later, so every
 * counted second holds 10 requests, the 40 processing changes of the previous second's entries and
 * the 40 final changes of the entries of the second before.
 */

const ENTRY: MediaLogEntry = {
  id: '0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0',
  send: '2026-03-10T12:00:00.250Z',
  url: 'https://media.example.com/videos/a.mp4',
  'user-id': 7,
  status: 'pending',
  'status-ffscan': 'pending',
  'status-mediainfo': 'pending',
  'status-scan-report': 'pending',
};

const SMALL: Partial<TrafficOptions> = { entriesPerSecond: 10, seconds: 60, users: 5, statusDelays: { processing: [1, 1], final: [1, 1] }, seed: 3 };
/** A lifecycle lasts 2 s here, so 2 s of warm-up precede the 60 counted seconds. */
const WARM_UP = 2;

/** Peak writes/s of one partition key (or item) of one table or index in a design's tally. */
function peakOf(heat: WriteTally['partitions'], target: string, key: string): number | undefined {
  return heat.target(target).hottest(1000).find((entry) => entry.key === key)?.peak;
}

/** A status change of {@link ENTRY}'s `field`. */
function changeOf(field: StatusField, value: MediaStatus, at: string): StatusChange {
  return { id: ENTRY.id, field, value, at };
}

/** Keys as the key builders make them. */
const KEYS = {
  entry: mediaLogKeys.entry(ENTRY.id),
  log: mediaLogKeys.log('2026-03'),
  pending: mediaLogKeys.status('pending'),
  processing: mediaLogKeys.status('processing'),
  allMonth: { pk: mediaLogKeys.counterPartition(mediaLogKeys.scope.all, 'month', null), sk: mediaLogKeys.counterSortKey('2026-03') },
};
/** The whole log's counter of the month, as the tally names items. */
const ALL_MONTH = `${KEYS.allMonth.pk} ${KEYS.allMonth.sk}`;

/** The media log table's writer, with {@link ENTRY} stored (put) in it. */
function storedEntry(): { tally: WriteTally; writer: TableWriter; item: MutableItem } {
  const tally = new WriteTally();
  const writer = new TableWriter(tally, mediaLogTable);
  const item: MutableItem = entryItem(ENTRY);
  writer.put(item);
  return { tally, writer, item };
}

describe('the write rules of a table and its indexes', () => {
  it('writes a new entry once in the table and once in each of its 7 listing indexes, on its own partitions', () => {
    const { tally } = storedEntry();

    expect(tally.totals).toMatchObject({ tableWrites: 1, tableUnits: 1, indexWrites: 7, indexUnits: 7 });
    expect(peakOf(tally.partitions, 'MediaLog', KEYS.entry.pk)).toBeUndefined();
    tally.endSecond();
    expect(peakOf(tally.partitions, 'MediaLog', KEYS.entry.pk)).toBe(1);
    expect(peakOf(tally.partitions, 'MediaLog log-by-send', KEYS.log)).toBe(1);
    expect(peakOf(tally.partitions, 'MediaLog status-by-send', KEYS.pending)).toBe(1);
    expect(peakOf(tally.items, 'MediaLog', `${KEYS.entry.pk} ${KEYS.entry.sk}`)).toBe(1);
  });

  it('writes a status change into every index that projects the status, and moves it in its own index by a delete and a put', () => {
    const { tally, writer, item } = storedEntry();
    tally.endSecond();

    writer.update(item, statusSet(changeOf('status', 'processing', '2026-03-10T12:00:01.250Z'), KEYS.processing));
    tally.endSecond();

    expect(tally.totals).toMatchObject({ tableWrites: 2, indexWrites: 7 + 6 + 2 });
    expect(peakOf(tally.partitions, 'MediaLog status-by-send', KEYS.pending)).toBe(1);
    expect(peakOf(tally.partitions, 'MediaLog status-by-send', KEYS.processing)).toBe(1);
    expect(peakOf(tally.partitions, 'MediaLog ffscan-status-by-send', KEYS.pending)).toBe(1);
  });

  it('writes no index when only an attribute no index holds changes', () => {
    const { tally, writer, item } = storedEntry();

    writer.update(item, { [STATUS_STORAGE.status.changedAt]: '2026-03-10T12:00:09.000Z' });
    tally.endSecond();

    expect(tally.totals).toMatchObject({ tableWrites: 2, indexWrites: 7 });
    expect(peakOf(tally.items, 'MediaLog', `${KEYS.entry.pk} ${KEYS.entry.sk}`)).toBe(2);
  });

  it('follows each index projection, keeps sparse indexes sparse, and costs a write one unit per KB', () => {
    const table: TableDefinition = {
      id: 'T',
      nameEnv: 'T',
      partitionKey: { name: 'pk', type: 'S' },
      indexes: [
        { indexName: 'keys', partitionKey: { name: 'g', type: 'S' }, projection: { type: 'KEYS_ONLY' } },
        { indexName: 'small', partitionKey: { name: 'h', type: 'S' }, projection: { type: 'INCLUDE', attributes: ['x'] } },
        { indexName: 'all', partitionKey: { name: 'h', type: 'S' }, projection: { type: 'ALL' } },
      ],
    };
    const tally = new WriteTally();
    const writer = new TableWriter(tally, table);
    const item: MutableItem = { pk: 'A', h: 'H', x: '1', big: 'b'.repeat(1500) };

    writer.put(item);
    expect(tally.totals).toMatchObject({ tableWrites: 1, tableUnits: 2, indexWrites: 2, indexUnits: 1 + 2 });

    writer.update(item, { x: '2' });
    expect(tally.totals).toMatchObject({ indexWrites: 4, indexUnits: 3 + 1 + 2 });

    writer.update(item, { big: 'c' });
    expect(tally.totals).toMatchObject({ tableWrites: 3, tableUnits: 2 + 2 + 2, indexWrites: 5, indexUnits: 6 + 2 });

    writer.update(item, { g: 'G' });
    expect(tally.totals).toMatchObject({ indexWrites: 5 + 1 + 1, indexUnits: 8 + 1 + 1 });

    writer.update(item, { g: 'G2' });
    tally.endSecond();
    expect(tally.totals.indexWrites).toBe(7 + 2 + 1);
    expect(peakOf(tally.partitions, 'T keys', 'G')).toBe(2);
    expect(peakOf(tally.partitions, 'T keys', 'G2')).toBe(1);
  });
});

describe('the fold of the counters', () => {
  const change = (from: MediaLogEntry, field: keyof typeof STATUS_STORAGE, value: MediaLogEntry['status']): MediaLogEntry => ({ ...from, [field]: value });

  it('writes each counter item a batch moves once, however many of its records touch it', () => {
    const tally = new WriteTally();
    const fold = new CounterFold(tally, 1);
    const processing = change(ENTRY, 'status', 'processing');
    const other = { ...ENTRY, id: '1f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0' };

    fold.record('ENTRY#a', undefined, ENTRY);
    fold.record('ENTRY#a', ENTRY, processing);
    fold.record('ENTRY#a', processing, change(processing, 'status-ffscan', 'processing'));
    fold.record('ENTRY#b', undefined, other);
    fold.endSecond(0);
    const beforeTheWindowEnds = tally.totals.counterWrites;
    fold.endSecond(1);
    tally.endSecond();

    // 4 whole-log buckets, and month and day of the user: all shared by both entries.
    expect(beforeTheWindowEnds).toBe(0);
    expect(tally.totals.counterWrites).toBe(4 + 2);
    expect(fold.batches).toBe(1);
    expect(peakOf(tally.items, 'MediaLogCounts', ALL_MONTH)).toBe(1);
  });

  it('writes nothing for changes that cancel out within a batch', () => {
    const tally = new WriteTally();
    const fold = new CounterFold(tally, 1);
    const processing = change(ENTRY, 'status', 'processing');

    fold.record('ENTRY#a', ENTRY, processing);
    fold.record('ENTRY#a', processing, ENTRY);
    fold.endSecond(0);
    fold.endSecond(1);

    expect(fold.batches).toBe(1);
    expect(tally.totals.counterWrites).toBe(0);
  });

  it('closes a batch as soon as it is full, and a smaller one when its window ends', () => {
    const fold = new CounterFold(new WriteTally(), 1, 2);

    for (let index = 0; index < 5; index += 1) fold.record('ENTRY#a', undefined, ENTRY);
    fold.endSecond(0);
    const full = fold.batches;
    fold.endSecond(1);

    expect(full).toBe(2);
    expect(fold.batches).toBe(3);
  });

  it('gives the stream one shard per 1,000 table writes/s', () => {
    expect([streamShards(90), streamShards(1000), streamShards(1001), streamShards(18_000)]).toEqual([1, 1, 2, 18]);
  });
});

describe('the simulation at 10 entries/s', () => {
  let result: KeyHeatResult;
  beforeAll(() => {
    result = benchKeyHeat({ traffic: SMALL });
  });

  /** Counted status changes, and the final ones that set the value their field already had (a check reporting processing again). */
  function countedChanges(): { all: number; unchanged: number } {
    const traffic = { ...PIPELINE_TRAFFIC, ...SMALL };
    let all = 0;
    let unchanged = 0;
    for (const { requests } of pipelineTraffic({ ...traffic, start: new Date(traffic.start.getTime() - WARM_UP * 1000), seconds: WARM_UP + traffic.seconds })) {
      for (const { entry, changes } of requests) {
        for (const { second, change } of changes) {
          if (second < WARM_UP || second >= WARM_UP + traffic.seconds) continue;
          all += 1;
          const final = Date.parse(change.at) - Date.parse(entry.send) === 2000;
          if (final && change.value === 'processing') unchanged += 1;
        }
      }
    }
    return { all, unchanged };
  }

  it('uses one stream shard and warms up for one lifecycle', () => {
    expect(result.shards).toBe(1);
    expect(result.warmUpSeconds).toBe(WARM_UP);
  });

  it('writes the table 9 times per lifecycle, 1 unit each, and twice the units inside transactions', () => {
    expect(result.current.perLifecycle.tableWrites).toBe(9);
    expect(result.current.perLifecycle.tableUnits).toBe(9);
    expect(result.previous.perLifecycle.tableUnits).toBe(18);
  });

  it('writes 7 indexes per request and 8 index items per status change that changes a value (8 and 9 with the url-for-a-user index of the previous design)', () => {
    const { all, unchanged } = countedChanges();
    const requests = 10 * 60;

    expect(all).toBe(requests * 8);
    expect(result.current.tally.totals.indexWrites).toBe(requests * 7 + (all - unchanged) * 8);
    expect(result.previous.tally.totals.indexWrites).toBe(requests * 8 + (all - unchanged) * 9);
  });

  it('finds the hottest partition key in the month partition of log-by-send: 10 requests and up to 80 changes a second', () => {
    expect(result.current.hottestPartitions[0]).toEqual({ target: 'MediaLog log-by-send', key: KEYS.log, peak: 90 });
  });

  it('moves 10 entries into and 10 out of a status partition each second, monthly in the previous design', () => {
    expect(peakOf(result.current.tally.partitions, 'MediaLog status-by-send', KEYS.pending)).toBe(20);
    expect(peakOf(result.previous.tally.partitions, 'MediaLog status-by-send', `${KEYS.pending}#2026-03`)).toBe(20);
  });

  it('writes an entry item at most 4 times a second (its 4 processing changes) and a whole-log counter once per batch', () => {
    expect(result.current.hottestItems[0]).toMatchObject({ target: 'MediaLog', peak: 4 });
    expect(peakOf(result.current.tally.items, 'MediaLogCounts', ALL_MONTH)).toBe(1);
  });

  it('writes a whole-log counter once per batch: 4 times a second in batches of 25 of the 90 records a second', () => {
    const small = benchKeyHeat({ traffic: SMALL, batchSize: 25 });

    expect(peakOf(small.current.tally.items, 'MediaLogCounts', ALL_MONTH)).toBe(4);
    expect(small.current.perLifecycle.counterWrites).toBeGreaterThan(result.current.perLifecycle.counterWrites);
  });

  it('writes 10 counter items in each of the 9 transactions of a lifecycle in the previous design, a whole-log one spread over 4 shards', () => {
    const wholeLog = result.previous.hottestItems[0];

    expect(result.previous.perLifecycle).toMatchObject({ counterWrites: 90, counterUnits: 180 });
    expect([0, 1, 2, 3].map((shard) => `${KEYS.allMonth.pk}#${shard} ${KEYS.allMonth.sk}`)).toContain(wholeLog?.key);
    expect(wholeLog?.peak).toBeGreaterThanOrEqual(Math.ceil(90 / 4));
  });

  it('adds up the units of a lifecycle and reports each target as met or missed', () => {
    const { perLifecycle, unitsPerLifecycle } = result.current;

    expect(unitsPerLifecycle).toBeCloseTo(perLifecycle.tableUnits + perLifecycle.indexUnits + perLifecycle.counterUnits, 9);
    expect(perLifecycle.counterUnits).toBeGreaterThanOrEqual(perLifecycle.counterWrites);
    expect(keyHeatTargets(result).map((target) => target.pass)).toEqual([true, true, unitsPerLifecycle <= 40]);
    expect(unitsPerLifecycle).toBeGreaterThan(40);
  });
});
