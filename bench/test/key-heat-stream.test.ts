import { marshall } from '@aws-sdk/util-dynamodb';
import { statusUpdate } from '../../functions/media-log/feed/status-writer';
import { entryItem } from '../../functions/media-log/model/entry-item';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { MAX_BATCH_PAYLOAD_BYTES } from '../../local/fold/stream-batches';
import { typicalLifecycle } from '../key-heat-lifecycle';
import { recordPayloadBytes, streamShards, StreamShards, type StreamBatch, type StreamOptions } from '../key-heat-stream';
import { TableWriter, WriteTally, type MutableItem } from '../key-heat-writes';

/** The stream as the fold's event source mapping reads it: shards, rollovers, and batches cut by size, window or payload. */

/** A new request, all four statuses pending. */
const { entry: ENTRY } = typicalLifecycle();

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-10T12:00:00.000Z');

/** One shard, batches of 3 records, 1 s windows, a rollover every 4 hours from 02:00. */
const OPTIONS: StreamOptions = { shards: 1, batchSize: 3, batchingWindowMs: 1000, rolloverMs: 4 * HOUR, rolloverOffsetMs: 2 * HOUR };
/** A share of the 6 MB a batch's payload may hold. */
const share = (fraction: number) => Math.round(fraction * MAX_BATCH_PAYLOAD_BYTES);

/** A stream of `options` whose stretch begins with empty batches (no random head start), and the batches it cut. */
function stream(options: Partial<StreamOptions> = {}): { shards: StreamShards; batches: StreamBatch[] } {
  const batches: StreamBatch[] = [];
  const shards = new StreamShards({ ...OPTIONS, ...options }, (batch) => batches.push(batch), () => 0);
  return { shards, batches };
}

const sizes = (batches: readonly StreamBatch[]) => batches.map((batch) => batch.records.length);

describe('the batches of the fold', () => {
  it('cuts a batch as soon as it holds the batch size', () => {
    const { shards, batches } = stream();

    for (let index = 0; index < 7; index += 1) shards.record('E#a', T0 + index, 10, undefined, ENTRY);

    expect(sizes(batches)).toEqual([3, 3]);
    expect(batches.map((batch) => batch.atMs)).toEqual([T0 + 2, T0 + 5]);
  });

  it('cuts a smaller batch when its window ends, counted from its first record', () => {
    const { shards, batches } = stream();

    shards.record('E#a', T0, 10, undefined, ENTRY);
    shards.record('E#a', T0 + 400, 10, undefined, ENTRY);
    shards.advanceTo(T0 + 999);
    const before = batches.length;
    shards.advanceTo(T0 + 1000);
    shards.record('E#a', T0 + 1500, 10, undefined, ENTRY);
    shards.record('E#a', T0 + 2600, 10, undefined, ENTRY);

    expect(before).toBe(0);
    expect(sizes(batches)).toEqual([2, 1]);
    expect(batches.map((batch) => batch.atMs)).toEqual([T0 + 1000, T0 + 2500]);
  });

  it('cuts a batch before the record that would take its payload over the limit', () => {
    const { shards, batches } = stream({ batchSize: 100 });

    for (const bytes of [share(0.4), share(0.4), share(0.3), share(0.1)]) shards.record('E#a', T0, bytes, undefined, ENTRY);
    shards.advanceTo(T0 + 1000);

    expect(sizes(batches)).toEqual([2, 2]);
  });

  it('delivers what a closing shard holds at its rollover, and names the new shard after it', () => {
    const { shards, batches } = stream({ batchSize: 100, batchingWindowMs: 60_000 });
    const rollover = Date.parse('2026-03-10T14:00:00.000Z');

    shards.record('E#a', rollover - 10, 10, undefined, ENTRY);
    shards.record('E#a', rollover + 10, 10, undefined, ENTRY);
    shards.advanceTo(rollover + 60_010);

    expect(batches.map((batch) => batch.atMs)).toEqual([rollover, rollover + 60_010]);
    expect(batches[0]?.shardId).not.toBe(batches[1]?.shardId);
  });

  it('keeps a partition key’s records in one shard, in order, with growing sequence keys', () => {
    const { shards, batches } = stream({ shards: 4, batchSize: 1000 });

    for (let index = 0; index < 40; index += 1) shards.record(`E#${index % 5}`, T0 + index, 10, undefined, { ...ENTRY, id: String(index) });
    shards.advanceTo(T0 + 2000);

    for (let key = 0; key < 5; key += 1) expect(batches.filter((batch) => batch.records.some((record) => Number(record.after?.id) % 5 === key))).toHaveLength(1);
    for (const batch of batches) {
      const sequences = batch.records.map((record) => record.sequence);
      expect(sequences).toEqual([...sequences].sort());
      expect(batch.records.map((record) => Number(record.after?.id))).toEqual(batch.records.map((record) => Number(record.after?.id)).sort((a, b) => a - b));
    }
  });

  it('begins a stretch with each shard’s first batch part full, so shards cut at moments of their own', () => {
    const batches: StreamBatch[] = [];
    const half = new StreamShards({ ...OPTIONS, batchSize: 100 }, (batch) => batches.push(batch), () => 0.5);

    half.record('E#a', T0, 10, undefined, ENTRY);
    half.advanceTo(T0 + 500);
    half.record('E#a', T0 + 600, share(0.6), undefined, ENTRY);
    half.advanceTo(T0 + 1600);

    // Half the window had passed and half the payload was taken: the first cut comes after 0.5 s.
    expect(batches.map((batch) => batch.atMs)).toEqual([T0 + 500, T0 + 1600]);
  });

  it('gives the stream one shard per 1,000 table writes/s', () => {
    expect([streamShards(90), streamShards(1000), streamShards(1001), streamShards(18_000)]).toEqual([1, 1, 2, 18]);
  });
});

describe('the payload of a record', () => {
  /** A record as Lambda delivers it, with the images in DynamoDB JSON. */
  function lambdaRecord(oldItem: MutableItem | undefined, newItem: MutableItem): string {
    return JSON.stringify({
      eventID: '7de3041dd709b024af6f29e4fa13d34c',
      eventName: oldItem ? 'MODIFY' : 'INSERT',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'eu-central-1',
      dynamodb: {
        ApproximateCreationDateTime: 1_773_144_000,
        Keys: marshall({ pk: newItem.pk }),
        NewImage: marshall(newItem),
        ...(oldItem ? { OldImage: marshall(oldItem) } : {}),
        SequenceNumber: '4'.repeat(28),
        SizeBytes: 1024,
        StreamViewType: 'NEW_AND_OLD_IMAGES',
      },
      eventSourceARN: 'arn:aws:dynamodb:eu-central-1:123456789012:table/FrontendApi-MediaLogV2A1B2C3D4-1Q2W3E4R5T6Y/stream/2026-03-01T00:00:00.000',
    });
  }

  it('estimates a put’s and an update’s record within 2 % of the event Lambda sends', () => {
    const writer = new TableWriter(new WriteTally(), mediaLogTable);
    const item: MutableItem = entryItem(ENTRY);
    writer.put(item);
    const put = recordPayloadBytes(undefined, writer.sizeOf(item));
    const old = { ...item };
    const oldSize = writer.sizeOf(item);
    const { set, remove } = statusUpdate({ id: ENTRY.id, field: 'status', value: 'processing', at: '2026-03-10T12:00:03.125Z' });
    writer.update(item, set, remove);
    const update = recordPayloadBytes(oldSize, writer.sizeOf(item));

    expect(Math.abs(put / lambdaRecord(undefined, old).length - 1)).toBeLessThan(0.02);
    expect(Math.abs(update / lambdaRecord(old, item).length - 1)).toBeLessThan(0.02);
  });
});
