import { counterChanges } from '../../../functions/media-log/fold/counter-deltas';
import { jest } from '@jest/globals';
import { EntryStream } from './entry-stream';
import { randomUUID } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { counterKeyId, entryCounterKeys, isCountAttribute, watermarkAttribute } from '../../../functions/media-log/model/counters';
import { entryItem } from '../../../functions/media-log/model/entry-item';
import { mediaLogKeys } from '../../../functions/media-log/model/keys';
import { handler } from '../../../functions/media-log/fold/fold-media-log-counts';
import { CountFold } from '../../../functions/media-log/fold/count-fold';
import { WATERMARK_RETENTION_SECONDS } from '../../../functions/media-log/fold/stream-functions';
import { foldConfig } from '../../../functions/media-log/fold/fold-config';
import { entryChanges, type StreamRecord } from '../../../functions/media-log/fold/stream-changes';
import { resetConfiguration } from '../../../functions/shared/config/define-config';
import type { MediaLogEntry } from '../../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../../functions/shared/aws/clients';
import { tableName } from '../../../functions/shared/config/data-config';
import { mediaLogCountsTable } from '../../../functions/shared/tables/media-log-table';
import { lambdaContext } from '../../../local/gateway/lambda-context';

/**
 * The fold against DynamoDB Local: each record of a shard counts once however the batches that
 * carry it are delivered (again, after a crash mid-batch, bisected, two at once), and the
 * watermarks that make it so are dropped once no record they cover can come again.
 */

afterEach(() => jest.restoreAllMocks());

const stream = new EntryStream(40_000, 100, 'https://media.example.com/fold.mp4');
const entry = (overrides: Partial<MediaLogEntry> = {}) => stream.entry(overrides);
const record = (before: MediaLogEntry | undefined, after: MediaLogEntry | undefined) => stream.record(before, after);

/** The counts a user's month counter holds (`n` and the status combinations), without its watermarks. */
async function monthCounts(user: number): Promise<Record<string, number>> {
  const key = entryCounterKeys(entry({ 'user-id': user })).find((candidate) => candidate.pk === `COUNT#USER#${user}#month`);
  const { Item = {} } = await getDocumentClient().send(new GetCommand({ TableName: tableName(mediaLogCountsTable), Key: key }));
  return Object.fromEntries(Object.entries(Item).filter((pair): pair is [string, number] => isCountAttribute(pair[0], pair[1]) && pair[1] !== 0));
}

function fold(shardId: string, records: readonly StreamRecord[], client: DynamoDBDocumentClient = getDocumentClient(), now?: () => number) {
  return new CountFold(client, tableName(mediaLogCountsTable), now).apply(shardId, counterChanges(entryChanges(records)));
}

/** A client whose counter writes fail after the first `after` of them: a fold that died mid-batch. */
function failingAfter(after: number): DynamoDBDocumentClient {
  const real = getDocumentClient();
  let writes = 0;
  return { send: async (command: unknown) => (command instanceof UpdateCommand && (writes += 1) > after ? Promise.reject(new Error('Task timed out')) : real.send(command as never)) } as never;
}

/** A request, then its status moving twice: three records of one entry. */
function lifecycle(user: number): StreamRecord[] {
  const requested = entry({ 'user-id': user });
  const processing = { ...requested, status: 'processing' as const };
  const done = { ...processing, status: 'success' as const, 'status-ffscan': 'success' as const };
  return [record(undefined, requested), record(requested, processing), record(processing, done)];
}

describe('the fold of a batch', () => {
  it('adds a new entry to each of its counters once, and moves it between status combinations as its statuses change', async () => {
    const user = stream.newUser();
    const outcome = await fold('shard-a', lifecycle(user));
    // The whole log's month, day and hour, and the user's month (the user heads its own family: no family counter).
    expect(outcome).toEqual({ counters: 4, written: 4, alreadyFolded: 0 });
    expect(await monthCounts(user)).toEqual({ n: 1, csspp: 1 });
  });

  /** A sub user's entry as the stream shows it keyed to a family, its family's month counter, and a stream record of its change. */
  function subUserEntry() {
    const sub = entry();
    const keyed = (familyId: number) => marshall(entryItem(sub, undefined, familyId));
    const familyMonth = async (familyId: number) => {
      const key = entryCounterKeys({ ...sub, family: familyId }).find((candidate) => candidate.pk === `COUNT#FAMILY#${familyId}#month`);
      const { Item = {} } = await getDocumentClient().send(new GetCommand({ TableName: tableName(mediaLogCountsTable), Key: key }));
      return Item.n;
    };
    const change = (before: ReturnType<typeof keyed> | undefined, after: ReturnType<typeof keyed>): StreamRecord => ({
      dynamodb: { Keys: marshall(mediaLogKeys.entry(sub.id)), ...(before ? { OldImage: before } : {}), NewImage: after, SequenceNumber: stream.newSequence() },
    });
    return { sub, keyed, familyMonth, change };
  }

  it('moves a re-keyed entry from its old family\'s counter to its new one, or to none when its user heads its own, its user\'s and the log\'s unchanged', async () => {
    const { sub, keyed, familyMonth, change } = subUserEntry();
    const [from, to] = [stream.newUser(), stream.newUser()];
    await fold('shard-a', [change(undefined, keyed(from))]);

    const outcome = await fold('shard-a', [change(keyed(from), keyed(to))]);

    expect(outcome).toEqual({ counters: 2, written: 2, alreadyFolded: 0 });
    expect([await familyMonth(from), await familyMonth(to)]).toEqual([0, 1]);
    expect((await monthCounts(sub['user-id'])).n).toBe(1);

    // Its user made a top user: the entry leaves the family's counter, and is counted by its user's alone.
    const alone = await fold('shard-a', [change(keyed(to), keyed(sub['user-id']))]);

    expect(alone).toEqual({ counters: 1, written: 1, alreadyFolded: 0 });
    expect(await familyMonth(to)).toBe(0);
    expect((await monthCounts(sub['user-id'])).n).toBe(1);
  });

  it('adds what comes after an item\'s watermark when a delivery straddles it, though the whole delivery cancels out there', async () => {
    const { keyed, familyMonth, change } = subUserEntry();
    const [from, to] = [stream.newUser(), stream.newUser()];
    const stored = change(undefined, keyed(from));
    const rekeyed = change(keyed(from), keyed(to));
    await fold('shard-a', [stored]);

    // Another fold, from an earlier position: the entry's put (folded already) and its re-key, which cancel out in the old family.
    await fold('shard-a', [stored, rekeyed]);

    expect([await familyMonth(from), await familyMonth(to)]).toEqual([0, 1]);
  });

  it('changes nothing when the same batch is delivered again', async () => {
    const user = stream.newUser();
    const batch = lifecycle(user);
    await fold('shard-a', batch);
    const again = await fold('shard-a', batch);
    expect(again).toEqual({ counters: 4, written: 0, alreadyFolded: 4 });
    expect(await monthCounts(user)).toEqual({ n: 1, csspp: 1 });
  });

  it('changes nothing when the halves of a batch it already wrote come bisected', async () => {
    const user = stream.newUser();
    const batch = [...lifecycle(user), ...lifecycle(user)];
    await fold('shard-a', batch);
    await fold('shard-a', batch.slice(0, 3));
    await fold('shard-a', batch.slice(3));
    expect(await monthCounts(user)).toEqual({ n: 2, csspp: 2 });
  });

  it.each([0, 2, 3])('ends exact when a delivery dies after %i counter writes and the batch comes again, whole or bisected', async (after) => {
    const user = stream.newUser();
    const batch = [...lifecycle(user), ...lifecycle(user)];
    await expect(fold('shard-a', batch, failingAfter(after))).rejects.toThrow('Task timed out');
    if (after === 2) {
      await fold('shard-a', batch.slice(0, 3));
      await fold('shard-a', batch.slice(3));
    } else {
      await fold('shard-a', batch);
    }
    expect(await monthCounts(user)).toEqual({ n: 2, csspp: 2 });
  });

  it('counts records of other shards on their own watermarks, whatever their sequence numbers', async () => {
    const user = stream.newUser();
    const lowerSequences = lifecycle(user);
    const higherSequences = lifecycle(user);
    // Shard b's records carry lower sequence numbers than shard a's, and are folded after them.
    await fold('shard-a', higherSequences);
    await fold('shard-b', lowerSequences);
    expect(await monthCounts(user)).toEqual({ n: 2, csspp: 2 });
  });

  it('adds only the records after the watermark when two deliveries of overlapping ranges run at once', async () => {
    const user = stream.newUser();
    const batch = [...lifecycle(user), ...lifecycle(user), ...lifecycle(user)];
    await Promise.all([fold('shard-c', batch.slice(0, 6)), fold('shard-c', batch), fold('shard-c', batch.slice(0, 3))]);
    expect(await monthCounts(user)).toEqual({ n: 3, csspp: 3 });
  });

  it('writes nothing for changes that move no counter (a request stored again as it was)', async () => {
    const requested = entry();
    const outcome = await fold('shard-a', [record(requested, requested)]);
    expect(outcome).toEqual({ counters: 0, written: 0, alreadyFolded: 0 });
  });
});

describe('watermarks', () => {
  async function counterItem(user: number): Promise<Record<string, unknown>> {
    const key = entryCounterKeys(entry({ 'user-id': user })).find((candidate) => candidate.pk === `COUNT#USER#${user}#month`);
    return (await getDocumentClient().send(new GetCommand({ TableName: tableName(mediaLogCountsTable), Key: key }))).Item ?? {};
  }

  it('drops a shard watermark once no record it covers can be delivered again, and keeps a fresh one', async () => {
    const user = stream.newUser();
    const start = 1_800_000_000;
    await fold('shard-old', lifecycle(user), getDocumentClient(), () => start);
    await fold('shard-kept', lifecycle(user), getDocumentClient(), () => start + WATERMARK_RETENTION_SECONDS - 60);
    await fold('shard-new', lifecycle(user), getDocumentClient(), () => start + WATERMARK_RETENTION_SECONDS + 1);
    const item = await counterItem(user);
    expect(Object.keys(item).filter((name) => name.startsWith('w_')).sort()).toEqual([watermarkAttribute('shard-kept'), watermarkAttribute('shard-new')].sort());
    expect(item.n).toBe(3);
  });

  it('names a watermark by a short digest of the shard id', () => {
    expect(watermarkAttribute('shardId-00000001795694038889-42e0e977')).toMatch(/^w_[A-Za-z0-9_-]{8}$/);
    expect(watermarkAttribute('a')).not.toBe(watermarkAttribute('b'));
    expect(counterKeyId({ pk: 'p', sk: 's' })).toBe('p\u0000s');
  });
});

describe('the fold handler', () => {
  it('refuses a batch whose event names no shard: without it no watermark could be kept', async () => {
    await expect(handler({ Records: lifecycle(stream.newUser()) as never }, lambdaContext('foldMediaLogCounts', 60_000))).rejects.toThrow(/names no shardId/);
  });

  it('answers the tumbling window with an empty state', async () => {
    const answer = await handler({ Records: lifecycle(stream.newUser()) as never, shardId: 'shard-h' }, lambdaContext('foldMediaLogCounts', 60_000));
    expect(answer).toEqual({ state: {}, batchItemFailures: [] });
  });
});

describe('the fold configuration', () => {
  const saved = process.env.FOLD_COUNTER_WRITES_IN_FLIGHT;
  afterEach(() => {
    if (saved === undefined) delete process.env.FOLD_COUNTER_WRITES_IN_FLIGHT;
    else process.env.FOLD_COUNTER_WRITES_IN_FLIGHT = saved;
    resetConfiguration();
  });

  it('keeps eight counter writes in flight locally, the local default', () => {
    expect(foldConfig().writesInFlight).toBe(8);
  });

  it.each(['0', '257', 'many'])('refuses %s counter writes in flight, naming the variable', (value) => {
    process.env.FOLD_COUNTER_WRITES_IN_FLIGHT = value;
    resetConfiguration();
    expect(() => foldConfig()).toThrow(/FOLD_COUNTER_WRITES_IN_FLIGHT/);
  });
});
