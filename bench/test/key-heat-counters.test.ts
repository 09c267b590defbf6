import type { EntryChange } from '../../functions/media-log/fold/stream-changes';
import { WATERMARK_RETENTION_SECONDS } from '../../functions/media-log/fold/stream-functions';
import { comboAttribute, counterKeyId, entryCounterKeys, TOTAL_ATTRIBUTE, VERSION_ATTRIBUTE, watermarkAttribute } from '../../functions/media-log/model/counters';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { mediaLogCountsTable } from '../../functions/shared/tables/media-log-table';
import { CounterTable, counterKind, type CounterItem } from '../key-heat-counters';
import { typicalLifecycle } from '../key-heat-lifecycle';
import { sequenceOf } from '../key-heat-stream';
import { WriteTally } from '../key-heat-writes';

/** The counters table as the fold writes it: one write per counter item a batch moves, and what each write leaves in the item. */

/** A new request, all four statuses pending. */
const { entry: ENTRY } = typicalLifecycle();
const PROCESSING: MediaLogEntry = { ...ENTRY, status: 'processing' };
const OTHER: MediaLogEntry = { ...ENTRY, id: '1f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f0' };
const NOW = Date.parse('2026-03-10T12:00:05.000Z') / 1000;

/** The entry's counter items: the whole log's month, day and hour, and its user's month. */
const KEYS = entryCounterKeys(ENTRY);
const MONTH = counterKeyId(KEYS[0] as { pk: string; sk: string });

let position = 0;
const change = (before: MediaLogEntry | undefined, after: MediaLogEntry): EntryChange => ({ sequence: sequenceOf(0, 0, (position += 1)), ...(before ? { before } : {}), after });
const counterWrites = (tally: WriteTally) => tally.totals.get(mediaLogCountsTable.id) ?? { writes: 0, units: 0 };
const itemOf = (counters: CounterTable, id: string) => counters.items.get(id) as CounterItem;

describe('the fold of a batch', () => {
  it('writes each counter item the batch moves once, however many of its records touch it', () => {
    const tally = new WriteTally();
    const counters = new CounterTable(tally);

    counters.fold('shard-a', [change(undefined, ENTRY), change(ENTRY, PROCESSING), change(undefined, OTHER)], NOW);
    tally.endSecond();

    expect(KEYS).toHaveLength(4);
    expect(counterWrites(tally)).toEqual({ writes: 4, units: 4 });
    expect(tally.items.target(mediaLogCountsTable.id).hottest(10).map((heat) => heat.peak)).toEqual([1, 1, 1, 1]);
    expect(itemOf(counters, MONTH).item).toMatchObject({ [TOTAL_ATTRIBUTE]: 2, [comboAttribute(PROCESSING)]: 1, [comboAttribute(ENTRY)]: 1, [VERSION_ATTRIBUTE]: 1 });
  });

  it('writes a mark alone, its version and watermark, for changes that cancel out within the batch', () => {
    const tally = new WriteTally();
    const counters = new CounterTable(tally);

    counters.fold('shard-a', [change(ENTRY, PROCESSING), change(PROCESSING, ENTRY)], NOW);

    // The whole log's month, day and hour, and the user's month: no count moves in any.
    expect(counterWrites(tally).writes).toBe(4);
    const month = itemOf(counters, MONTH);
    expect(month.item[VERSION_ATTRIBUTE]).toBe(1);
    expect(month.item[TOTAL_ATTRIBUTE]).toBeUndefined();
    expect([...month.watermarks.keys()]).toEqual([watermarkAttribute('shard-a')]);
  });

  it('leaves one watermark per shard in an item, and the version counting its writes', () => {
    const counters = new CounterTable(new WriteTally());

    counters.fold('shard-a', [change(undefined, ENTRY)], NOW);
    counters.fold('shard-b', [change(undefined, OTHER)], NOW + 1);
    counters.fold('shard-a', [change(ENTRY, PROCESSING)], NOW + 2);

    const month = itemOf(counters, MONTH);
    expect([...month.watermarks.keys()].sort()).toEqual([watermarkAttribute('shard-a'), watermarkAttribute('shard-b')].sort());
    expect(month.item[VERSION_ATTRIBUTE]).toBe(3);
    expect(month.item[watermarkAttribute('shard-a')]).toMatch(new RegExp(`@${NOW + 2}$`));
  });

  it('removes a watermark older than the retention with a second write, after the write that finds it', () => {
    const tally = new WriteTally();
    const counters = new CounterTable(tally);
    counters.fold('shard-old', [change(undefined, ENTRY)], NOW);
    counters.fold('shard-new', [change(undefined, OTHER)], NOW + WATERMARK_RETENTION_SECONDS);
    const kept = counterWrites(tally).writes;

    counters.fold('shard-new', [change(ENTRY, PROCESSING)], NOW + WATERMARK_RETENTION_SECONDS + 1);

    expect(kept).toBe(8);
    expect(counterWrites(tally).writes).toBe(8 + 4 + 4);
    expect([...itemOf(counters, MONTH).watermarks.keys()]).toEqual([watermarkAttribute('shard-new')]);
    expect(itemOf(counters, MONTH).item[watermarkAttribute('shard-old')]).toBeUndefined();
    expect(itemOf(counters, MONTH).mostWatermarks).toBe(2);
  });

  it('costs a counter write what the item weighs then: a unit more per KB', () => {
    const tally = new WriteTally();
    const counters = new CounterTable(tally);
    counters.fold('shard-a', [change(undefined, ENTRY)], NOW);
    const month = itemOf(counters, MONTH);
    counters.restate(month, { padding: 'x'.repeat(1500) }, [], new Map());
    const before = { ...counterWrites(tally) };

    counters.fold('shard-a', [change(ENTRY, PROCESSING)], NOW + 1);

    expect(before).toEqual({ writes: 4, units: 4 });
    expect(counterWrites(tally)).toEqual({ writes: 8, units: 4 + 2 + 3 });
  });

  it('brings an item up to date before the fold writes it, when told how', () => {
    const caughtUp: string[] = [];
    const counters = new CounterTable(new WriteTally(), (counter) => caughtUp.push(counter.id));

    counters.fold('shard-a', [change(undefined, ENTRY)], NOW);

    expect(caughtUp.sort()).toEqual(KEYS.map((key) => counterKeyId(key)).sort());
  });

  it('tells the whole log’s items from a user’s, with their level', () => {
    expect(KEYS.map((key) => counterKind(key))).toEqual(['whole log, month', 'whole log, day', 'whole log, hour', 'a user, month']);
  });
});
