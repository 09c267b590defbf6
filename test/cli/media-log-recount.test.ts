import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import { MediaLogRecount } from '../../functions/media-log/fold/recount';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogCountsTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { foldLog } from '../harness/media-log';
import { countsOfEntries, storedCounts } from '../harness/media-log-counts';
import { runEntryPoint } from '../local/entry-points';
import { busyFeed } from '../media-log/feed/feed-fixture';

/**
 * `media-log recount`: a counter set broken on purpose (counts moved, an item deleted, an item
 * that no entry makes) is made exact again from the entries, the drift it corrected is reported,
 * and a recount beside a running feed and fold never makes a counter wrong.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-recount-'));
const counts = () => tableName(mediaLogCountsTable);

let sample: ReturnType<typeof sampleMediaLogEntries>;

beforeAll(async () => {
  sample = sampleMediaLogEntries(400, { userIds: [71_001, 71_002, 71_003], start: new Date('2026-04-01T00:00:00Z'), spanMs: 40 * 86_400_000, seed: 61 });
  await writeMediaLogEntries(sample);
  await foldLog();
}, 120_000);

describe('cli media-log recount', () => {
  it('corrects nothing on a counter set that is exact (and leaves the data directory\'s fold at the stream\'s end)', async () => {
    const run = await runEntryPoint('cli', ['media-log', 'recount'], { env: { DATA_DIR: dataDir } });
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ corrected: [], busy: [] });
  }, 120_000);

  it('makes a deliberately broken counter set exact again, and reports the drift it corrected', async () => {
    expect(await storedCounts()).toEqual(await countsOfEntries());
    const client = getDocumentClient();
    const userMonth = { pk: 'COUNT#USER#71001#month', sk: '2026-04' };
    const allDay = { pk: 'COUNT#ALL#day#2026-04', sk: '2026-04-10' };
    const allHour = (await storedCounts()).keys().next().value as string;
    await client.send(new UpdateCommand({ TableName: counts(), Key: userMonth, UpdateExpression: 'ADD n :five', ExpressionAttributeValues: { ':five': 5 } }));
    await client.send(new UpdateCommand({ TableName: counts(), Key: allDay, UpdateExpression: 'ADD cssss :minus', ExpressionAttributeValues: { ':minus': -2 } }));
    const [deletedPk, deletedSk] = allHour.split('\u0000') as [string, string];
    await client.send(new DeleteCommand({ TableName: counts(), Key: { pk: deletedPk, sk: deletedSk } }));
    await client.send(new PutCommand({ TableName: counts(), Item: { pk: 'COUNT#USER#999999#month', sk: '2026-04', n: 7, cssss: 7 } }));
    expect(await storedCounts()).not.toEqual(await countsOfEntries());

    const run = await runEntryPoint('cli', ['media-log', 'recount'], { env: { DATA_DIR: dataDir } });

    expect(run.stderr).toContain('counter items: 4 corrected, 0 being written by the fold');
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.busy).toEqual([]);
    expect(report.corrected).toEqual(
      expect.arrayContaining([
        { counter: `${userMonth.pk} ${userMonth.sk}`, added: { n: -5 } },
        { counter: `${allDay.pk} ${allDay.sk}`, added: { cssss: 2 } },
        { counter: 'COUNT#USER#999999#month 2026-04', added: { n: -7, cssss: -7 } },
        expect.objectContaining({ counter: `${deletedPk} ${deletedSk}` }),
      ]),
    );
    expect(await storedCounts()).toEqual(await countsOfEntries());
  }, 120_000);

  it('refuses a settle time shorter than the fold\'s batching window', async () => {
    const run = await runEntryPoint('cli', ['media-log', 'recount', '--settle', '1'], { env: { DATA_DIR: dataDir } });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--settle takes whole seconds/);
  });
});

describe('a recount beside a running feed and fold', () => {
  it('corrects what is quiet, leaves alone what the fold writes meanwhile, and never makes a counter wrong', async () => {
    const client = getDocumentClient();
    const quiet = { pk: 'COUNT#USER#71002#month', sk: '2026-04' };
    await client.send(new UpdateCommand({ TableName: counts(), Key: quiet, UpdateExpression: 'ADD n :three', ExpressionAttributeValues: { ':three': 3 } }));
    // A busy user: the feed changes its entries' statuses for as long as the recount runs.
    const busy = sample.filter((entry) => entry['user-id'] === 71_003).slice(0, 40);
    const feed = busyFeed(busy, foldLog);
    const recount = new MediaLogRecount(client, { entries: tableName(mediaLogTable), counts: counts() });
    // The recount starts with the feed under way, so that it runs beside a later round whatever its speed.
    await feed.firstRound;

    const report = await recount.run(() => foldLog());
    const rounds = await feed.stop();
    await foldLog();

    expect(report.corrected).toContainEqual({ ...quiet, added: { n: -3 } });
    expect(report.busy).toContainEqual({ pk: 'COUNT#USER#71003#month', sk: '2026-04' });
    expect(rounds).toBeGreaterThan(1);
    expect(await storedCounts()).toEqual(await countsOfEntries());
  }, 180_000);

  it('counts an id it has never seen as the new entry it is', async () => {
    const id = randomUUID();
    await writeMediaLogEntries([{ ...(sample[0] as (typeof sample)[number]), id }]);
    const report = await new MediaLogRecount(getDocumentClient(), { entries: tableName(mediaLogTable), counts: counts() }).run(() => foldLog());
    expect(report.corrected).toEqual([]);
    expect(await storedCounts()).toEqual(await countsOfEntries());
  }, 120_000);
});
