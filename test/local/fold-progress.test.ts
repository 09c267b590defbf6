import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import { DELTA_ATTRIBUTES } from '../../functions/media-log/fold/delta-items';
import { MediaLogRecount } from '../../functions/media-log/fold/recount';
import { WATERMARK_RETENTION_SECONDS } from '../../functions/media-log/fold/stream-functions';
import { DELTA_KEY_PREFIX } from '../../functions/media-log/model/keys';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { MEDIA_LOG_ATTRIBUTES, mediaLogCountsTable, mediaLogDeltasTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { CLOCK_MARGIN_MS, FoldBehindError, FoldProgress } from '../../local/fold/fold-progress';
import { LocalMediaLogFold } from '../../local/fold/media-log-fold';
import { streamsClient } from '../../local/fold/stream-consumer';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { countsOfEntries, storedCounts } from '../harness/media-log-counts';
import { busyFeed } from '../media-log/feed/feed-fixture';

/**
 * The fold's measured progress (DESIGN.md 7b, round five), which `media-log recount` settles on and
 * `media-log migrate` waits on: read from the first stage's watermarks and the stream after them,
 * and from the deltas the second stage has yet to apply, never from a sleep.
 */

const tables = () => ({ entries: tableName(mediaLogTable), deltas: tableName(mediaLogDeltasTable) });
const progress = () => new FoldProgress(getDocumentClient(), streamsClient(), tables());
let seed = 300;
const entries = (count: number) => sampleMediaLogEntries(count, { userIds: [81_001, 81_002], start: new Date('2026-05-01T00:00:00Z'), spanMs: 3 * 86_400_000, seed: (seed += 1) });

afterEach(async () => {
  // Every test leaves the fold caught up, so the next one starts from nothing pending.
  const fold = new LocalMediaLogFold();
  await fold.drain();
});

it('finds the first stage behind by the changes it has yet to fold, then the second by its deltas, then both done', async () => {
  await writeMediaLogEntries(entries(300));
  // An item of another kind: the first stage's filter leaves its record out, so it holds nothing up.
  await getDocumentClient().send(new PutCommand({ TableName: tables().entries, Item: { pk: 'NOTE#1', sk: 'NOTE', text: 'no entry' } }));
  const mark = Date.now();
  const look = progress();
  const fold = new LocalMediaLogFold();

  expect(await look.look(mark)).toEqual({ shards: { caughtUp: 0, total: 1 }, unfolded: 300, unapplied: 0, settled: false });
  await fold.entries.drain();
  const second = await look.look(mark);
  expect(second).toMatchObject({ shards: { caughtUp: 1, total: 1 }, unfolded: 0, settled: false });
  expect(second.unapplied).toBeGreaterThan(0);
  await fold.deltas.drain();
  expect(await look.look(mark)).toEqual({ shards: { caughtUp: 1, total: 1 }, unfolded: 0, unapplied: 0, settled: true });
  expect(await storedCounts()).toEqual(await countsOfEntries());
}, 120_000);

it('is not held up by changes made after the mark, nor by a delta the second stage cannot read', async () => {
  // A delta no stage wrote, dated now: the second stage reports and skips it, and never deletes it.
  const expiresAt = Math.floor(Date.now() / 1000) - 10 + WATERMARK_RETENTION_SECONDS;
  await getDocumentClient().send(new PutCommand({ TableName: tables().deltas, Item: { pk: `${DELTA_KEY_PREFIX}forged#00`, sk: '01', [DELTA_ATTRIBUTES.deltas]: 'not a list', [MEDIA_LOG_ATTRIBUTES.expiresAt]: expiresAt } }));
  // DynamoDB Local stamps a record's creation to the minute (AWS, to the second): a mark two
  // minutes back, and its margin, are before every change made now.
  const mark = Date.now() - 120_000 - CLOCK_MARGIN_MS;
  await writeMediaLogEntries(entries(40));

  expect(await progress().look(mark)).toEqual({ shards: { caughtUp: 1, total: 1 }, unfolded: 0, unapplied: 0, settled: true });
  expect(await progress().look(Date.now())).toMatchObject({ unfolded: 40, settled: false });
}, 120_000);

it('fails a wait on a fold that does not run, saying how far behind each stage is', async () => {
  await writeMediaLogEntries(entries(20));
  const wait = progress().waitFor(Date.now(), { timeoutMs: 1_500, intervalMs: 300 });
  await expect(wait).rejects.toThrow(FoldBehindError);
  await expect(wait).rejects.toThrow(/first stage, 1 of 1 stream shard\(s\) behind \(20 change\(s\) at least\); second stage, 0 delta\(s\) to apply/);
}, 60_000);

it('waits for a fold that runs meanwhile, and returns once every change up to the mark is counted', async () => {
  await writeMediaLogEntries(entries(400));
  const mark = Date.now();
  const fold = new LocalMediaLogFold();
  const looks: boolean[] = [];
  const waited = progress().waitFor(mark, { timeoutMs: 60_000, intervalMs: 200, onLook: (report) => looks.push(report.settled) });
  await new Promise((resolve) => setTimeout(resolve, 700));
  const failures: unknown[] = [];
  fold.start((error) => failures.push(error), 100);
  try {
    expect((await waited).settled).toBe(true);
    expect(failures).toEqual([]);
    // The fold only started after the first looks: the wait saw it behind, then caught up.
    expect(looks[0]).toBe(false);
    // Nothing more to fold for what was written before the mark: the counters are exact without another drain.
    expect(await storedCounts()).toEqual(await countsOfEntries());
  } finally {
    await fold.stop();
  }
}, 120_000);

it('lets a recount beside a running feed and fold settle on the fold\'s progress, and never makes a counter wrong', async () => {
  const sample = entries(300);
  await writeMediaLogEntries(sample);
  await new LocalMediaLogFold().drain();
  const client = getDocumentClient();
  const counts = tableName(mediaLogCountsTable);
  const quiet = { pk: 'COUNT#USER#81001#month', sk: '2026-05' };
  await client.send(new UpdateCommand({ TableName: counts, Key: quiet, UpdateExpression: 'ADD n :three', ExpressionAttributeValues: { ':three': 3 } }));
  // The feed changes a busy user's entries for as long as the recount runs; the fold runs on its own, as in AWS.
  const busy = sample.filter((entry) => entry['user-id'] === 81_002).slice(0, 30);
  const fold = new LocalMediaLogFold();
  const failures: unknown[] = [];
  fold.start((error) => failures.push(error), 100);
  const feed = busyFeed(busy);
  try {
    // The recount starts with the feed under way: a later round always runs beside it.
    await feed.firstRound;
    const report = await new MediaLogRecount(client, { entries: tables().entries, counts }).run(async () => {
      // The feed goes on into the wait, then stops: DynamoDB Local stamps records to the minute, so
      // a wait beside a feed that never stops lasts until the minute turns.
      setTimeout(() => void feed.stop(), 2_000);
      await progress().waitFor(Date.now(), { timeoutMs: 90_000, intervalMs: 200 });
    });
    const rounds = await feed.stop();
    await progress().waitFor(Date.now(), { timeoutMs: 60_000, intervalMs: 200 });

    expect(report.corrected).toContainEqual({ ...quiet, added: { n: -3 } });
    expect(rounds).toBeGreaterThan(1);
    expect(failures).toEqual([]);
    expect(await storedCounts()).toEqual(await countsOfEntries());
  } finally {
    await feed.stop();
    await fold.stop();
  }
}, 180_000);
