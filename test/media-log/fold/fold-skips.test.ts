import { counterChanges } from '../../../functions/media-log/fold/counter-deltas';
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { StreamRecord } from '../../../functions/media-log/fold/stream-changes';
import type { MediaStatus } from '../../../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';
import { enableTelemetry, isMetricLine, useTelemetryCapture } from '../../observability/telemetry-capture';
import { startSqsStandIn, type SqsStandIn } from '../../harness/sqs-stand-in';

// The log and metric lines of the fold, as Lambda writes them: turned on before its modules load.
enableTelemetry({ metrics: true });
const { handler } = await import('../../../functions/media-log/fold/fold-media-log-counts');
const { CountFold, MAX_ADDITIONS_PER_WRITE } = await import('../../../functions/media-log/fold/count-fold');
const { isCountAttribute } = await import('../../../functions/media-log/model/counters');
const { FOLD_ENV } = await import('../../../functions/media-log/fold/fold-config');
const { entryChanges } = await import('../../../functions/media-log/fold/stream-changes');
const { MEDIA_STATUSES } = await import('../../../functions/media-log/model/entry-fields');
const { entryItem } = await import('../../../functions/media-log/model/entry-item');
const { getDocumentClient } = await import('../../../functions/shared/aws/clients');
const { resetConfiguration } = await import('../../../functions/shared/config/define-config');
const { tableName } = await import('../../../functions/shared/config/data-config');
const { mediaLogCountsTable } = await import('../../../functions/shared/tables/media-log-table');
const { lambdaContext } = await import('../../../local/gateway/lambda-context');
const { withLocalFold } = await import('../../../local/fold/media-log-fold');
const { handler: applyHandler } = await import('../../../functions/media-log/fold/apply-media-log-deltas');

const telemetry = useTelemetryCapture();

/**
 * No record can stall the fold: a record it cannot read (an image without a field a counter needs)
 * is logged, counted, reported to the failure queue and skipped, and the rest of its batch is
 * folded; a counter item that a batch moves between more status combinations than one update may
 * name is written in several updates, each within DynamoDB's expression limits, and counts exactly.
 */

let sequence = 5000;
let user = 80_000;

function entry(overrides: Partial<MediaLogEntry> = {}): MediaLogEntry {
  return { id: randomUUID(), send: '2026-10-01T10:00:00.000Z', url: 'https://media.example.com/skip.mp4', 'user-id': user, status: 'pending', 'status-ffscan': 'pending', 'status-mediainfo': 'pending', 'status-scan-report': 'pending', ...overrides };
}

function record(newImage: Record<string, unknown>, oldImage?: Record<string, unknown>): StreamRecord {
  sequence += 1;
  return { eventName: oldImage ? 'MODIFY' : 'INSERT', dynamodb: { Keys: marshall({ pk: newImage.pk }), NewImage: marshall(newImage), ...(oldImage ? { OldImage: marshall(oldImage) } : {}), SequenceNumber: String(sequence) } };
}

async function userMonth(userId: number): Promise<Record<string, number>> {
  const { Item = {} } = await getDocumentClient().send(new GetCommand({ TableName: tableName(mediaLogCountsTable), Key: { pk: `COUNT#USER#${userId}#month`, sk: '2026-10' } }));
  return Object.fromEntries(Object.entries(Item).filter((pair): pair is [string, number] => isCountAttribute(pair[0], pair[1]) && pair[1] !== 0));
}

/** The second stage over what the first wrote: the deltas' stream, read by a local consumer as its mapping would. */
async function applyDeltas(): Promise<void> {
  await withLocalFold((fold) => fold.deltas.drain());
}

describe('a record the fold cannot read', () => {
  let queue: SqsStandIn;
  beforeAll(async () => {
    queue = await startSqsStandIn();
    process.env[FOLD_ENV.failureQueueUrl] = queue.queueUrl;
    resetConfiguration();
  });
  afterAll(async () => {
    delete process.env[FOLD_ENV.failureQueueUrl];
    resetConfiguration();
    await queue.close();
  });

  it('is logged with its key and reason, counted, reported to the failure queue and skipped, and the rest of the batch is folded', async () => {
    user += 1;
    const good = entry();
    const broken = entryItem(entry());
    delete broken.userId;
    const answer = await handler({ Records: [record(entryItem(good)), record(broken)] as never, shardId: 'shard-skip', eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/MediaLogV2/stream/x' }, lambdaContext('foldMediaLogCounts', 60_000));

    expect(answer).toEqual({ state: {}, batchItemFailures: [] });
    await applyDeltas();
    expect(await userMonth(user)).toEqual({ n: 1, cpppp: 1 });
    const lines = telemetry.take();
    expect(lines.find((line) => line.message === 'Fold record skipped')).toMatchObject({ level: 'ERROR', shardId: 'shard-skip', sequence: String(sequence), reason: 'new image: no user id (userId) in the image' });
    expect(lines.filter(isMetricLine).find((line) => 'MediaLogFoldSkipped' in line)).toMatchObject({ MediaLogFoldSkipped: 1 });
    expect(queue.bodies.map((body) => JSON.parse(body))).toEqual([
      expect.objectContaining({ requestContext: expect.objectContaining({ condition: 'UnreadableRecord' }), DDBStreamBatchInfo: expect.objectContaining({ shardId: 'shard-skip', startSequenceNumber: String(sequence), batchSize: 1 }), reason: 'new image: no user id (userId) in the image' }),
    ]);
  });

  it.each([
    ['a status value it does not know', (item: Record<string, unknown>) => ({ ...item, status: 'lost' }), 'new image: no status value for status in the image'],
    ['no send key', (item: Record<string, unknown>) => ({ ...item, sk: undefined }), 'new image: no send key (sk) in the image'],
  ])('is skipped for %s', async (_name, damage, reason) => {
    const read = entryChanges([record(entryItem(entry()))]);
    expect(read).toHaveLength(1);
    const before = queue.bodies.length;
    const damaged = Object.fromEntries(Object.entries(damage(entryItem(entry()))).filter(([, value]) => value !== undefined));
    await handler({ Records: [record(damaged)] as never, shardId: 'shard-skip' }, lambdaContext('foldMediaLogCounts', 60_000));
    expect(JSON.parse(queue.bodies[before] as string).reason).toBe(reason);
  });
});

describe('a delta record the second stage cannot read', () => {
  let queue: SqsStandIn;
  beforeAll(async () => {
    queue = await startSqsStandIn();
    process.env[FOLD_ENV.deltaFailureQueueUrl] = queue.queueUrl;
    resetConfiguration();
  });
  afterAll(async () => {
    delete process.env[FOLD_ENV.deltaFailureQueueUrl];
    resetConfiguration();
    await queue.close();
  });

  function deltaRecord(deltas: unknown): StreamRecord {
    sequence += 1;
    const item = { pk: 'DELTA#hostile#00', sk: String(sequence), d: deltas };
    return { eventName: 'INSERT', dynamodb: { Keys: marshall({ pk: item.pk, sk: item.sk }), NewImage: marshall(item, { removeUndefinedValues: true }), SequenceNumber: String(sequence) } };
  }

  it.each([
    ['a count named like a key', [{ p: 'COUNT#USER#1#month', s: '2026-10', c: { pk: 1 } }], 'a delta of COUNT#USER#1#month 2026-10 with a count that is none (pk)'],
    ['a count named like a watermark', [{ p: 'COUNT#USER#1#month', s: '2026-10', c: { w_abc: 1 } }], 'a delta of COUNT#USER#1#month 2026-10 with a count that is none (w_abc)'],
    ['a fractional count', [{ p: 'COUNT#USER#1#month', s: '2026-10', c: { n: 0.5 } }], 'a delta of COUNT#USER#1#month 2026-10 with a count that is none (n)'],
    ['a key outside the counters', [{ p: 'E#1', s: '2026-10', c: { n: 1 } }], 'a delta without a counter key'],
    ['no list of deltas', 'n', 'no list of deltas (d)'],
  ])('is reported and skipped, the good deltas of its batch applied: %s', async (_name, deltas, reason) => {
    user += 1;
    const before = queue.bodies.length;
    const good = deltaRecord([{ p: `COUNT#USER#${user}#month`, s: '2026-10', c: { n: 2, cpppp: 2 } }]);
    const answer = await applyHandler({ Records: [deltaRecord(deltas), good] as never, shardId: 'delta-shard-skip' }, lambdaContext('applyMediaLogDeltas', 60_000));
    expect(answer).toEqual({ state: {}, batchItemFailures: [] });
    expect(await userMonth(user)).toEqual({ n: 2, cpppp: 2 });
    expect(queue.bodies.slice(before).map((body) => JSON.parse(body))).toEqual([
      expect.objectContaining({ requestContext: expect.objectContaining({ condition: 'UnreadableRecord' }), DDBStreamBatchInfo: expect.objectContaining({ shardId: 'delta-shard-skip', batchSize: 1 }), reason }),
    ]);
  });
});

describe('a counter a batch moves between many status combinations', () => {
  it('is written in updates of at most 250 additions each, and counts exactly', async () => {
    user += 1;
    const combos: [MediaStatus, MediaStatus, MediaStatus, MediaStatus][] = [];
    expect(MAX_ADDITIONS_PER_WRITE).toBe(250);
    for (const a of MEDIA_STATUSES) for (const b of MEDIA_STATUSES) for (const c of MEDIA_STATUSES) for (const d of MEDIA_STATUSES) combos.push([a, b, c, d]);
    const entries = combos.map(([status, ffscan, mediainfo, scan]) => entry({ status, 'status-ffscan': ffscan, 'status-mediainfo': mediainfo, 'status-scan-report': scan }));
    const additions: number[] = [];
    const client = getDocumentClient();
    const watched = { send: (command: unknown) => {
      if (command instanceof UpdateCommand && String(command.input.Key?.pk).startsWith(`COUNT#USER#${user}`)) additions.push((String(command.input.UpdateExpression).match(/#a\d+ :v\d+/g) ?? []).length);
      return client.send(command as never);
    } } as never;

    await new CountFold(watched, tableName(mediaLogCountsTable)).apply('shard-many', counterChanges(entryChanges(entries.map((one) => record(entryItem(one))))));

    expect(additions.length).toBeGreaterThan(1);
    expect(Math.max(...additions)).toBeLessThanOrEqual(MAX_ADDITIONS_PER_WRITE + 1);
    const counts = await userMonth(user);
    expect(counts.n).toBe(combos.length);
    expect(Object.keys(counts).length).toBe(combos.length + 1);
  });
});
