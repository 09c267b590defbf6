import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StatusField } from '../../functions/media-log/model/entry-fields';
import { foldLog } from '../harness/media-log';
import { countsOfEntries, storedCounts } from '../harness/media-log-counts';
import { createTestUser, type TestUser } from '../harness/users';
import { invoke } from '../harness/invoke';
import { runEntryPoint } from '../local/entry-points';
import { deliver, failedBodies, requestMessage, statusMessage } from '../media-log/feed/feed-fixture';
import { createPreviousTable, previousItem, type PreviousItem } from './previous-layout';

/**
 * The runbook of docs/operations.md, "Upgrading the media log", walked locally while the media
 * pipeline sends throughout: the feed's mapping paused (its queue holds what the pipeline sends),
 * the new tables in place, the previous entries copied with `media-log migrate --rate`, the mapping
 * resumed (the backlog, then what keeps coming), `media-log recount` once the fold has caught up.
 * It ends with every entry in the new table and every counter exact.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-upgrade-'));
const PREVIOUS = 'MediaLogBeforeUpgrade';
const FIELDS: readonly StatusField[] = ['status', 'status-ffscan', 'status-mediainfo', 'status-scan-report'];

/**
 * The media pipeline and the feed's queue: the pipeline sends a new request and a status change of
 * an earlier one every tick, and a late status of a previous entry every other tick; the mapping
 * delivers what the queue holds while it is enabled, and a message that fails stays in the queue.
 */
class PipelineAndQueue {
  public readonly queue: object[] = [];
  public enabled = true;
  public sent = 0;
  private readonly requested: string[] = [];
  private tick = 0;
  private running: Promise<void> | undefined;
  private stopping = false;

  public constructor(
    private readonly userId: number,
    private readonly previous: readonly PreviousItem[],
  ) {}

  /** The pipeline sends every 200 ms; the mapping delivers batches of 10 for as long as the queue holds any. */
  public start(): void {
    const sending = (async () => {
      while (!this.stopping) {
        this.send();
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    const delivering = (async () => {
      while (!this.stopping) {
        if (this.enabled && this.queue.length > 0) await this.deliverQueued();
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    this.running = Promise.all([sending, delivering]).then(() => undefined);
  }

  /** Stop sending; deliver what the queue still holds (a status waiting for its entry goes round again). */
  public async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
    this.enabled = true;
    for (let round = 0; round < 500 && this.queue.length > 0; round += 1) await this.deliverQueued();
  }

  private send(): void {
    this.tick += 1;
    const at = new Date(Date.parse('2026-05-01T00:00:00.000Z') + this.tick * 1000).toISOString();
    const id = randomUUID();
    this.queue.push(requestMessage({ id, send: at, url: `https://media.example.com/upgrade/${id}.mp4`, 'user-id': this.userId }));
    const earlier = this.requested[this.tick % Math.max(1, this.requested.length)];
    if (earlier !== undefined) this.queue.push(statusMessage(earlier, FIELDS[this.tick % FIELDS.length] as StatusField, 'success', at));
    const late = this.previous[this.tick % this.previous.length];
    if (this.tick % 2 === 0 && late !== undefined) this.queue.push(statusMessage(late.id, 'status-scan-report', 'success', at));
    this.requested.push(id);
    this.sent += 1;
  }

  private async deliverQueued(): Promise<void> {
    const batch = this.queue.splice(0, 10);
    if (batch.length === 0) return;
    const { response, records } = await deliver(batch);
    // A status of an entry not copied yet fails and is delivered again, as the queue would.
    for (const body of failedBodies(response, records)) this.queue.push(JSON.parse(body));
  }
}

describe('upgrading the media log under load, as the runbook says', () => {
  let owner: TestUser;
  let previous: PreviousItem[];

  beforeAll(async () => {
    owner = await createTestUser({ role: 'user' });
    previous = Array.from({ length: 60 }, (_, index) => previousItem(owner.record.id, `2026-04-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00.000Z`, ['success', 'error', 'success', 'pending'], '2026-04-29T00:00:00.000Z'));
    await createPreviousTable(PREVIOUS, previous);
  }, 60_000);

  it('pauses the feed, copies the previous entries, resumes, recounts, and ends with every entry and every count exact', async () => {
    const pipeline = new PipelineAndQueue(owner.record.id, previous);
    pipeline.start();
    await new Promise((resolve) => setTimeout(resolve, 500));

    // 1. Pause the feed's mapping: the queue holds what the pipeline keeps sending.
    pipeline.enabled = false;
    // 2. Deploy (locally the new tables are in place), 3. copy the previous entries at a set rate.
    const migrate = await runEntryPoint('cli', ['media-log', 'migrate', '--from', PREVIOUS, '--rate', '20'], { env: { DATA_DIR: dataDir } });
    expect(migrate.stdout).toBe('60 entries copied, 0 already present, 0 items skipped (not entries)\n');
    expect(pipeline.queue.length).toBeGreaterThan(10);
    // 4. Resume: the backlog, then what keeps coming.
    pipeline.enabled = true;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await pipeline.stop();
    expect(pipeline.queue).toEqual([]);
    // 5. Recount once the fold has caught up: nothing to correct.
    await foldLog();
    const recount = await runEntryPoint('cli', ['media-log', 'recount'], { env: { DATA_DIR: dataDir } });
    expect(recount.status).toBe(0);
    expect(JSON.parse(recount.stdout)).toMatchObject({ corrected: [], busy: [] });

    expect(await storedCounts()).toEqual(await countsOfEntries());
    const listed = await invoke('listMediaLog', { token: owner.token, query: 'pagination[limit]=1' });
    expect(listed.body.pagination).toMatchObject({ total: previous.length + pipeline.sent, 'total-exact': true });
    const lateStatuses = await invoke('listMediaLog', { token: owner.token, query: 'status-scan-report=pending&status=success&status-ffscan=error' });
    // Every previous entry's late status arrived after it was copied, and applied.
    expect(lateStatuses.body.pagination.total).toBe(previous.filter((_, index) => !lateIndexes(pipeline.sent, previous.length).has(index)).length);
  }, 300_000);
});

/** The previous entries the pipeline sent a late status for, by index, in `ticks` ticks. */
function lateIndexes(ticks: number, count: number): Set<number> {
  const indexes = new Set<number>();
  for (let tick = 1; tick <= ticks; tick += 1) if (tick % 2 === 0) indexes.add(tick % count);
  return indexes;
}
