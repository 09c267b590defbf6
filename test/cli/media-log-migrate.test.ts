import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { runEntryPoint } from '../local/entry-points';
import { createPreviousTable, previousItem, type PreviousItem } from './previous-layout';
import { deliver, requestMessage } from '../media-log/feed/feed-fixture';

/**
 * `media-log migrate --from TABLE`: the entries of a table of the previous layout (one item per
 * entry under `ENTRY#<id>` / `ENTRY`, as the previous release stored them) are copied into this
 * layout's table with the time each status was set, counted by the fold, and a second run copies
 * nothing twice.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-migrate-'));
const PREVIOUS = 'MediaLogPrevious';
let owner: TestUser;
let items: PreviousItem[];

beforeAll(async () => {
  owner = await createTestUser({ role: 'root' });
  items = [
    ...Array.from({ length: 30 }, (_, index) => previousItem(owner.record.id, `2026-02-0${1 + (index % 9)}T10:00:00.000Z`, ['success', 'success', 'success', 'success'], '2026-02-10T00:00:00.000Z')),
    ...Array.from({ length: 5 }, () => previousItem(owner.record.id, '2026-02-15T08:30:00.000Z', ['error', 'error', 'success', 'pending'], '2026-02-15T08:31:00.000Z')),
  ];
  await createPreviousTable(PREVIOUS, items);
}, 60_000);

const list = (query: string) => invoke('listMediaLog', { token: owner.token, query: `user-id=${owner.record.id}&${query}` });

describe('cli media-log migrate', () => {
  it('copies every entry of the previous layout, statuses and all, and the fold counts them', async () => {
    const run = await runEntryPoint('cli', ['media-log', 'migrate', '--from', PREVIOUS], { env: { DATA_DIR: dataDir } });

    expect(run.stdout).toBe('35 entries copied, 0 already present, 0 items skipped (not entries)\n');
    expect(run.status).toBe(0);
    const all = await list('pagination[limit]=100');
    expect(all.body.pagination).toMatchObject({ total: 35, 'total-exact': true });
    expect((await list('status=error')).body.pagination.total).toBe(5);
    expect((await list('status-scan-report=pending')).body.log).toHaveLength(5);
    const copied = all.body.log.find((entry: { id: string }) => entry.id === items[0]?.id);
    expect(copied).toEqual({ id: items[0]?.id, send: items[0]?.send, url: items[0]?.url, 'user-id': owner.record.id, status: 'success', 'status-ffscan': 'success', 'status-mediainfo': 'success', 'status-scan-report': 'success' });
  }, 120_000);

  it('keeps when each status was set: a feed change older than it changes nothing', async () => {
    const id = items[0]?.id as string;
    const stale = { type: 'status', id, field: 'status', value: 'error', at: '2026-02-09T00:00:00.000Z' };
    const generated = await runEntryPoint('invoke', ['--generate-event', 'SQS', '--body', JSON.stringify(stale)], { env: { DATA_DIR: dataDir } });
    const ingested = await runEntryPoint('invoke', ['ingestMediaLog'], { env: { DATA_DIR: dataDir }, stdin: generated.stdout });
    expect(ingested.status).toBe(0);
    expect((await list('status=error')).body.pagination.total).toBe(5);
  }, 120_000);

  it('copies nothing twice when run again', async () => {
    const run = await runEntryPoint('cli', ['media-log', 'migrate', '--from', PREVIOUS], { env: { DATA_DIR: dataDir } });
    expect(run.stdout).toBe('0 entries copied, 35 already present, 0 items skipped (not entries)\n');
    expect((await list('pagination[limit]=1')).body.pagination.total).toBe(35);
  }, 120_000);

  it('copies at most --rate entries a second', async () => {
    const paced = Array.from({ length: 25 }, () => previousItem(owner.record.id, '2026-03-01T10:00:00.000Z', ['success', 'success', 'success', 'success'], '2026-03-01T10:01:00.000Z'));
    const again = `${PREVIOUS}Paced`;
    await createPreviousTable(again, paced);

    const started = Date.now();
    const run = await runEntryPoint('cli', ['media-log', 'migrate', '--from', again, '--rate', '5'], { env: { DATA_DIR: dataDir } });
    // 25 entries at 5 a second, in rounds of 5: the first at once, each other a second after the one before.
    expect(run.stdout).toBe('25 entries copied, 0 already present, 0 items skipped (not entries)\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
  }, 120_000);

  it('keeps the previous table\'s statuses of an entry whose request the feed stored again before the copy', async () => {
    const [item] = [previousItem(owner.record.id, '2026-03-02T10:00:00.000Z', ['success', 'error', 'warning', 'skipped'], '2026-03-02T10:05:00.000Z')];
    const again = `${PREVIOUS}Resent`;
    await createPreviousTable(again, [item]);
    // The pipeline sends the request again (a redelivery): the new table stores it as pending.
    await deliver([requestMessage({ id: item.id, send: item.send, url: item.url, 'user-id': owner.record.id })]);

    const run = await runEntryPoint('cli', ['media-log', 'migrate', '--from', again], { env: { DATA_DIR: dataDir } });

    expect(run.stdout).toBe('0 entries copied, 1 already present, 0 items skipped (not entries)\n');
    const copied = (await list(`request=${item.id}`)).body.log[0];
    // Three statuses set at 10:05 in the previous table, later than the request's pending at 10:00, and one
    // at 10:00 itself, where the feed's rule takes the greater value: the previous table's, all four.
    expect(copied).toMatchObject({ status: 'success', 'status-ffscan': 'error', 'status-mediainfo': 'warning', 'status-scan-report': 'skipped' });
  }, 120_000);

  it.each([['0'], ['fast'], ['18001']])('refuses --rate %s, saying what it takes', async (rate) => {
    const run = await runEntryPoint('cli', ['media-log', 'migrate', '--from', PREVIOUS, '--rate', rate], { env: { DATA_DIR: dataDir } });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--rate takes entries per second, a whole number from 1 to 18000 (default 500).');
  }, 60_000);

  it('says so when the table to copy from does not exist', async () => {
    const run = await runEntryPoint('cli', ['media-log', 'migrate', '--from', 'NoSuchTable'], { env: { DATA_DIR: dataDir } });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('there is no table NoSuchTable to copy entries from.');
  }, 60_000);
});
