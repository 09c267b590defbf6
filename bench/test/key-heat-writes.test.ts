import type { StatusChange } from '../../functions/media-log/feed/feed-messages';
import { statusUpdate } from '../../functions/media-log/feed/status-writer';
import type { MediaStatus, StatusField } from '../../functions/media-log/model/entry-fields';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { mediaLogKeys } from '../../functions/media-log/model/keys';
import { mediaLogTable, MEDIA_LOG_ATTRIBUTES } from '../../functions/shared/tables/media-log-table';
import type { TableDefinition } from '../../functions/shared/tables/table-definition';
import { typicalLifecycle } from '../key-heat-lifecycle';
import { numberSize, TableWriter, WriteTally, type MutableItem } from '../key-heat-writes';

/** The write rules of a table and its indexes, on the media log's own table and on a small one worked out by hand. */

/** A new request, all four statuses pending. */
const { entry: ENTRY } = typicalLifecycle();

const TABLE = mediaLogTable.id;
const index = (name: string) => `${TABLE} ${name}`;
const shards = mediaLogKeys.shardsOf(ENTRY.id);

/** Writes of each target in `tally`, by name (targets with none left out). */
function writesOf(tally: WriteTally): Record<string, number> {
  return Object.fromEntries([...tally.totals].filter(([, total]) => total.writes > 0).map(([target, total]) => [target, total.writes]));
}

/** Peak writes/s of one partition key of one target. */
function peakOf(tally: WriteTally, target: string, key: string): number | undefined {
  return tally.partitions.target(target).hottest(1000).find((heat) => heat.key === key)?.peak;
}

function stored(familyId = ENTRY['user-id']): { tally: WriteTally; writer: TableWriter; item: MutableItem } {
  const tally = new WriteTally();
  const writer = new TableWriter(tally, mediaLogTable);
  const item: MutableItem = entryItem(ENTRY, undefined, familyId);
  writer.put(item);
  return { tally, writer, item };
}

function change(writer: TableWriter, item: MutableItem, field: StatusField, value: MediaStatus, at: string): void {
  const statusChange: StatusChange = { id: ENTRY.id, field, value, at };
  const { set, remove } = statusUpdate(statusChange);
  writer.update(item, set, remove);
}

describe('the media log table as the feed writes it', () => {
  it('puts a top user’s new entry in the table and in 7 indexes: log, user, url and the pending partition of each status index', () => {
    const { tally } = stored();
    tally.endSecond();

    expect(writesOf(tally)).toEqual({
      [TABLE]: 1,
      [index('log-by-send')]: 1,
      [index('user-by-send')]: 1,
      [index('url-by-send')]: 1,
      [index('status-by-send')]: 1,
      [index('ffscan-status-by-send')]: 1,
      [index('mediainfo-status-by-send')]: 1,
      [index('scan-report-status-by-send')]: 1,
    });
    expect(peakOf(tally, index('log-by-send'), mediaLogKeys.log(shards.log))).toBe(1);
    expect(peakOf(tally, index('status-by-send'), mediaLogKeys.status('pending', shards.status('pending')))).toBe(1);
  });

  it('puts a sub user’s new entry in its family’s index as well, in the shard its id falls in', () => {
    const family = ENTRY['user-id'] + 1;
    const { tally } = stored(family);
    tally.endSecond();

    expect(writesOf(tally)[index('family-by-send')]).toBe(1);
    expect(peakOf(tally, index('family-by-send'), mediaLogKeys.family(family, shards.family))).toBe(1);
  });

  it('moves an entry from pending to processing in its own field’s status index only: a delete and a put', () => {
    const { tally, writer, item } = stored();
    tally.endSecond();
    const before = writesOf(tally);

    change(writer, item, 'status-ffscan', 'processing', '2026-03-10T12:00:01.000Z');
    tally.endSecond();

    expect(writesOf(tally)).toEqual({ ...before, [TABLE]: 2, [index('ffscan-status-by-send')]: 1 + 2 });
    expect(peakOf(tally, index('ffscan-status-by-send'), mediaLogKeys.status('pending', shards.status('pending')))).toBe(1);
    expect(peakOf(tally, index('ffscan-status-by-send'), mediaLogKeys.status('processing', shards.status('processing')))).toBe(1);
  });

  it('takes an entry out of its sparse status index when the field ends in success: a delete, and the attribute gone', () => {
    const { tally, writer, item } = stored();
    change(writer, item, 'status', 'processing', '2026-03-10T12:00:01.000Z');
    const before = writesOf(tally);

    change(writer, item, 'status', 'success', '2026-03-10T12:00:02.000Z');

    const after = writesOf(tally);
    expect(after[TABLE]).toBe((before[TABLE] as number) + 1);
    expect(after[index('status-by-send')]).toBe((before[index('status-by-send')] as number) + 1);
    expect(item[MEDIA_LOG_ATTRIBUTES.partition.status]).toBeUndefined();
    expect(writer.sizeOf(item).attributes).toBe(Object.keys(item).length);
  });

  it('writes only the table when a change keeps the value (a check reporting processing again)', () => {
    const { tally, writer, item } = stored();
    change(writer, item, 'status-mediainfo', 'processing', '2026-03-10T12:00:01.000Z');
    const before = writesOf(tally);

    change(writer, item, 'status-mediainfo', 'processing', '2026-03-10T12:00:05.000Z');

    expect(writesOf(tally)).toEqual({ ...before, [TABLE]: (before[TABLE] as number) + 1 });
  });

  it('counts nothing while counting is off, but keeps the item’s size up to date', () => {
    const tally = new WriteTally();
    const writer = new TableWriter(tally, mediaLogTable);
    const item: MutableItem = entryItem(ENTRY);

    tally.uncounted(() => writer.put(item));
    const size = writer.sizeOf(item).bytes;
    tally.uncounted(() => change(writer, item, 'status', 'processing', '2026-03-10T12:00:01.000Z'));

    expect(writesOf(tally)).toEqual({});
    expect(tally.counting).toBe(true);
    // The status and its index partition (`processing#<shard>` for `pending#<shard>`) grow by as much.
    expect(writer.sizeOf(item).bytes).toBe(size + 2 * ('processing'.length - 'pending'.length));
  });
});

describe('the write rules of global secondary indexes', () => {
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
  const units = (tally: WriteTally) => Object.fromEntries([...tally.totals].map(([target, total]) => [target, total.units]));

  it('follows each projection, keeps sparse indexes sparse, and costs a write one unit per KB', () => {
    const tally = new WriteTally();
    const writer = new TableWriter(tally, table);
    // 2 + 1 + 1 + 1 + 1 + 3 + 1500 bytes: two units in the table and in the index holding everything.
    const item: MutableItem = { pk: 'A', h: 'H', x: '1', big: 'b'.repeat(1500) };

    writer.put(item);
    expect(units(tally)).toEqual({ T: 2, 'T keys': 0, 'T small': 1, 'T all': 2 });

    writer.update(item, { x: '2' });
    expect(units(tally)).toEqual({ T: 4, 'T keys': 0, 'T small': 2, 'T all': 4 });

    writer.update(item, { big: 'c' });
    // The larger of old and new for the table and for the index that holds `big`; nothing for `small`.
    expect(units(tally)).toEqual({ T: 6, 'T keys': 0, 'T small': 2, 'T all': 6 });

    writer.update(item, { g: 'G' });
    expect(units(tally)).toEqual({ T: 7, 'T keys': 1, 'T small': 2, 'T all': 7 });
  });

  it('moves an item whose index key changes (a delete and a put) and takes it out when the key is removed', () => {
    const tally = new WriteTally();
    const writer = new TableWriter(tally, table);
    const item: MutableItem = { pk: 'A', g: 'G' };
    writer.put(item);

    writer.update(item, { g: 'G2' });
    writer.update(item, {}, ['g']);
    writer.update(item, {}, ['g']);
    tally.endSecond();

    expect(tally.totals.get('T keys')?.writes).toBe(1 + 2 + 1);
    expect(tally.totals.get('T')?.writes).toBe(4);
    expect(peakOf(tally, 'T keys', 'G')).toBe(2);
    expect(peakOf(tally, 'T keys', 'G2')).toBe(2);
    expect(item).toEqual({ pk: 'A' });
    expect(writer.sizeOf(item)).toMatchObject({ bytes: 3, attributes: 1 });
  });

  it('keeps each key’s peak write units per second beside its peak writes, so a heavy item outranks a busy light one', () => {
    const tally = new WriteTally();
    const writer = new TableWriter(tally, table);
    const light: MutableItem = { pk: 'light', h: 'L' };
    const heavy: MutableItem = { pk: 'heavy', h: 'H', big: 'b'.repeat(3000) };
    // One second: the light item three times, the heavy one twice (3 units a write); the next second, the heavy one once.
    writer.put(light);
    writer.update(light, { x: '1' });
    writer.update(light, { x: '2' });
    writer.put(heavy);
    writer.update(heavy, { x: '1' });
    tally.endSecond();
    writer.update(heavy, { x: '2' });
    tally.endSecond();

    expect(tally.items.target('T').hottest(1)[0]).toEqual({ target: 'T', key: 'light', peak: 3, peakUnits: 3 });
    expect(tally.items.target('T').hottestByUnits(1)[0]).toEqual({ target: 'T', key: 'heavy', peak: 2, peakUnits: 6 });
    expect(tally.partitions.hottestByUnits(2).map((heat) => [heat.target, heat.key, heat.peakUnits])).toEqual([
      ['T', 'heavy', 6],
      ['T all', 'H', 6],
    ]);
  });

  it('charges the larger of the old and the new item when an update shrinks it past a KB', () => {
    const tally = new WriteTally();
    const writer = new TableWriter(tally, table);
    const item: MutableItem = { pk: 'A', big: 'b'.repeat(1100) };
    writer.put(item);

    writer.update(item, {}, ['big']);

    expect(tally.totals.get('T')).toEqual({ writes: 2, units: 2 + 2 });
  });
});

describe('the size of a number', () => {
  it('counts a byte per pair of digits aligned on the decimal point, trailing zero pairs left out, one more, and one for a sign (as DynamoDB Local does)', () => {
    const sizes = Object.fromEntries([0, 7, 10, 100, 120, 1234, 3000, 98765, 12_345_678, 1_500_000_000, -5, -1234].map((value) => [value, numberSize(value)]));

    expect(sizes).toEqual({ 0: 1, 7: 2, 10: 2, 100: 2, 120: 3, 1234: 3, 3000: 2, 98765: 4, 12345678: 5, 1500000000: 2, '-5': 3, '-1234': 4 });
  });
});
