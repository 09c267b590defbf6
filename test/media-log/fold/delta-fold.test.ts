import { EntryStream } from './entry-stream';
import { GetCommand, ScanCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { DeltaFold } from '../../../functions/media-log/fold/delta-fold';
import { DELTA_ATTRIBUTES, deltaBytes, deltaKeys, deltaWrites, readDeltaRecords, summedDeltas, type StoredDelta } from '../../../functions/media-log/fold/delta-items';
import { entryChanges, type EntryChange, type StreamRecord } from '../../../functions/media-log/fold/stream-changes';
import { WATERMARK_RETENTION_SECONDS } from '../../../functions/media-log/fold/stream-functions';
import { counterKeyId } from '../../../functions/media-log/model/counters';
import { entryItem } from '../../../functions/media-log/model/entry-item';
import { DELTA_KEY_PREFIX, FOLD_MARK_KEY_PREFIX } from '../../../functions/media-log/model/keys';
import { writeMediaLogEntries } from '../../../functions/media-log/feed/import-changes';
import { LocalMediaLogFold } from '../../../local/fold/media-log-fold';
import { sampleMediaLogEntries } from '../../../local/seed/sample-entries';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogDeltasTable } from '../../../functions/shared/tables/media-log-table';

/**
 * The fold's first stage against DynamoDB Local (DESIGN.md 7b, round five): each record of a
 * media-log stream shard lands in the deltas exactly once however its batch is delivered (again,
 * bisected after the whole was written, a transaction whose answer was lost, overlapping ranges,
 * the parent and child shards of a split or a rollover), and what the deltas sum to is what the
 * records add to the counters.
 */

const stream = new EntryStream(60_000, 1_000, 'https://media.example.com/delta.mp4');
const entry = () => stream.entry();
const record = (before: MediaLogEntry | undefined, after: MediaLogEntry) => stream.record(before, after);

/** Records of `count` new entries, then a status change of each. */
function lifecycles(count: number): StreamRecord[] {
  const created = Array.from({ length: count }, () => entry());
  return [...created.map((one) => record(undefined, one)), ...created.map((one) => record(one, { ...one, status: 'success' }))];
}

/** What a list of deltas sums to, per counter item. */
function total(deltas: readonly StoredDelta[]): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const { p, s, c } of deltas) {
    const id = counterKeyId({ pk: p, sk: s });
    const sum = sums.get(id) ?? {};
    for (const [name, value] of Object.entries(c)) sum[name] = (sum[name] ?? 0) + value;
    sums.set(id, Object.fromEntries(Object.entries(sum).filter(([, value]) => value !== 0)));
  }
  return new Map([...sums].filter(([, sum]) => Object.keys(sum).length > 0));
}

/** Every delta a shard's delta items hold, whatever their part. */
async function storedDeltas(shardId: string): Promise<StoredDelta[]> {
  const prefix = deltaKeys.delta(shardId, '', 0).pk.replace(/\d+$/, '');
  const { Items = [] } = await getDocumentClient().send(
    new ScanCommand({ TableName: tableName(mediaLogDeltasTable), FilterExpression: 'begins_with(pk, :prefix)', ExpressionAttributeValues: { ':prefix': prefix }, ConsistentRead: true }),
  );
  return Items.flatMap((item) => item[DELTA_ATTRIBUTES.deltas] as StoredDelta[]);
}

/** Expect the shard's deltas to sum to exactly what `records` add. */
async function expectExactly(shardId: string, records: readonly StreamRecord[]): Promise<void> {
  expect(total(await storedDeltas(shardId))).toEqual(total(summedDeltas(entryChanges(records))));
}

const fold = () => new DeltaFold(getDocumentClient(), tableName(mediaLogDeltasTable));
const changes = (records: readonly StreamRecord[]): EntryChange[] => entryChanges(records);

describe('the first stage of a batch', () => {
  it('writes the summed deltas of a batch with the shard watermark, in one transaction', async () => {
    const records = lifecycles(5);
    expect(await fold().apply('shard-one', changes(records))).toEqual({ transactions: 1, deltaItems: 1, alreadyFolded: 0 });
    await expectExactly('shard-one', records);
    const { Item } = await getDocumentClient().send(new GetCommand({ TableName: tableName(mediaLogDeltasTable), Key: deltaKeys.mark('shard-one'), ConsistentRead: true }));
    expect(Item?.[DELTA_ATTRIBUTES.watermark]).toMatch(new RegExp(`^${changes(records).at(-1)?.sequence}@\\d+$`));
    expect(Item?.expiresAt).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + WATERMARK_RETENTION_SECONDS - 5);
  });

  it('writes nothing again when the same batch comes again, or its halves bisected after the whole was written', async () => {
    const records = lifecycles(6);
    await fold().apply('shard-again', changes(records));
    expect(await fold().apply('shard-again', changes(records))).toEqual({ transactions: 0, deltaItems: 0, alreadyFolded: 12 });
    expect(await fold().apply('shard-again', changes(records.slice(0, 6)))).toMatchObject({ transactions: 0, alreadyFolded: 6 });
    expect(await fold().apply('shard-again', changes(records.slice(6)))).toMatchObject({ transactions: 0, alreadyFolded: 6 });
    await expectExactly('shard-again', records);
  });

  it('writes only the records after the watermark when a delivery overlaps one written before', async () => {
    const records = lifecycles(6);
    await fold().apply('shard-overlap', changes(records.slice(0, 7)));
    expect(await fold().apply('shard-overlap', changes(records.slice(3)))).toEqual({ transactions: 1, deltaItems: 1, alreadyFolded: 4 });
    await expectExactly('shard-overlap', records);
  });

  it('ends exact when a transaction was written but its answer lost, and the batch comes again whole or bisected', async () => {
    const lost = {
      send: async (command: unknown) => {
        await getDocumentClient().send(command as TransactWriteCommand);
        throw Object.assign(new Error('Task timed out'), { name: 'TimeoutError' });
      },
    } as unknown as DynamoDBDocumentClient;
    for (const [shard, bisect] of [['shard-lost-whole', false], ['shard-lost-halves', true]] as const) {
      const records = lifecycles(4);
      await expect(new DeltaFold(lost, tableName(mediaLogDeltasTable)).apply(shard, changes(records))).rejects.toThrow('Task timed out');
      if (bisect) {
        await fold().apply(shard, changes(records.slice(0, 3)));
        await fold().apply(shard, changes(records.slice(3)));
      } else await fold().apply(shard, changes(records));
      await expectExactly(shard, records);
    }
  });

  it('keeps each shard on its own watermark: a parent and its child after a split or a rollover, whatever their sequence numbers', async () => {
    const parent = lifecycles(3);
    const child = lifecycles(3);
    // The child's records are folded first, then the parent's, whose sequence numbers are lower.
    await fold().apply('shard-child', changes(child));
    await fold().apply('shard-parent', changes(parent));
    await expectExactly('shard-child', child);
    await expectExactly('shard-parent', parent);
  });

  it('adds nothing twice when deliveries of overlapping ranges from one checkpoint run at once', async () => {
    const records = lifecycles(8);
    const ranges = [records.slice(0, 6), records, records.slice(0, 3)];
    const outcomes = await Promise.allSettled(ranges.map((range) => fold().apply('shard-race', changes(range))));
    // Transactions on one watermark may conflict rather than wait: a refused delivery is retried, as Lambda retries its batch.
    for (const [index, outcome] of outcomes.entries()) if (outcome.status === 'rejected') await fold().apply('shard-race', changes(ranges[index] as StreamRecord[]));
    await expectExactly('shard-race', records);
  });
});

describe('a batch whose deltas exceed a transaction', () => {
  // Limits of a few deltas, so that a few records show the cuts that a batch of megabytes makes.
  const small = { itemBytes: 400, transactionBytes: 1_000 };

  it('is cut into consecutive transactions and items within the limits, which sum to the batch', () => {
    const records = lifecycles(40);
    const writes = deltaWrites(changes(records), small);
    expect(writes.length).toBeGreaterThan(3);
    for (const write of writes) for (const item of write.items) expect(item.reduce((bytes, delta) => bytes + deltaBytes(delta), 0)).toBeLessThanOrEqual(small.itemBytes);
    expect(writes.some((write) => write.items.length > 1)).toBe(true);
    expect(writes.map((write) => write.first)).toEqual([...writes.map((write) => write.first)].sort());
    expect(total(writes.flatMap((write) => write.items.flat()))).toEqual(total(summedDeltas(changes(records))));
  });

  it('ends exact when a delivery dies between two of its transactions and the batch comes again', async () => {
    const records = lifecycles(30);
    let sent = 0;
    const dying = {
      send: async (command: unknown) => {
        if ((sent += 1) > 2) throw Object.assign(new Error('Task timed out'), { name: 'TimeoutError' });
        return getDocumentClient().send(command as TransactWriteCommand);
      },
    } as unknown as DynamoDBDocumentClient;
    await expect(new DeltaFold(dying, tableName(mediaLogDeltasTable), undefined, small).apply('shard-huge', changes(records))).rejects.toThrow('Task timed out');
    const retried = await new DeltaFold(getDocumentClient(), tableName(mediaLogDeltasTable), undefined, small).apply('shard-huge', changes(records));
    expect(retried.alreadyFolded).toBeGreaterThan(0);
    await expectExactly('shard-huge', records);
  });
});

describe('both stages, as the mappings run them', () => {
  it('leave no delta behind once applied, and the shard\'s watermark in place', async () => {
    await writeMediaLogEntries(sampleMediaLogEntries(50, { userIds: [stream.newUser()], start: new Date('2026-06-01T00:00:00Z'), spanMs: 86_400_000, seed: 41 }));
    const local = new LocalMediaLogFold();
    try {
      const drained = await local.drain();
      expect(drained.deltas.delivered).toBeGreaterThan(0);
      // The deletes are in the deltas' stream too, and its filter lets none of them through.
      expect((await local.drain()).deltas.delivered).toBe(0);
    } finally {
      await local.stop();
    }
    const { Items = [] } = await getDocumentClient().send(new ScanCommand({ TableName: tableName(mediaLogDeltasTable), ConsistentRead: true }));
    expect(Items.filter((item) => String(item.pk).startsWith(DELTA_KEY_PREFIX))).toEqual([]);
    expect(Items.filter((item) => String(item.pk).startsWith(FOLD_MARK_KEY_PREFIX)).length).toBeGreaterThan(0);
  });
});

describe('the second stage reading the deltas', () => {
  it('gives each counter one part per delta record, at the record\'s sequence, and names the deltas to delete', () => {
    const deltas: StoredDelta[] = [{ p: 'COUNT#ALL#month', s: '2026-09', c: { n: 2, cpppp: 2 } }];
    const image = (sk: string) => marshall({ pk: 'DELTA#abc#00', sk, d: deltas });
    const read = readDeltaRecords([
      { eventName: 'INSERT', dynamodb: { SequenceNumber: '17', NewImage: image('a') } },
      { eventName: 'REMOVE', dynamodb: { SequenceNumber: '18', Keys: marshall({ pk: 'DELTA#abc#00', sk: 'a' }) } },
      { eventName: 'INSERT', dynamodb: { SequenceNumber: '190', NewImage: image('b') } },
    ]);
    expect(read.unreadable).toEqual([]);
    expect(read.applied).toEqual([{ pk: 'DELTA#abc#00', sk: 'a' }, { pk: 'DELTA#abc#00', sk: 'b' }]);
    expect([...read.counters.values()]).toEqual([{ key: { pk: 'COUNT#ALL#month', sk: '2026-09' }, parts: [{ sequence: '0217', counts: new Map([['n', 2], ['cpppp', 2]]) }, { sequence: '03190', counts: new Map([['n', 2], ['cpppp', 2]]) }] }]);
  });
});
