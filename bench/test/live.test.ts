import { PIPELINE_TRAFFIC } from '../key-heat-traffic';
import { simulateLive } from '../live-simulation';
import { distinctWatchers, watcherMix } from '../live-watchers';

/**
 * The live bench's simulation on a small pipeline: the notifiers it runs read the registry at most
 * once a second each, post nothing without watchers, never more entry messages than their
 * watchers' filters match, and share each subscription's 20 messages a second among the shards.
 */

const traffic = { ...PIPELINE_TRAFFIC, entriesPerSecond: 200, users: 20 };

describe('the live simulation', () => {
  it('keeps to the notifier\'s bounds at 0 and 40 watchers', async () => {
    const [idle, watched] = await simulateLive({ traffic, shards: 3, watcherCounts: [0, 40], warmupSeconds: 20, seconds: 10 });

    expect(idle).toMatchObject({ entryMessages: 0, overflowMessages: 0 });
    expect(idle?.busiestShardSecond).toBeLessThanOrEqual(1);
    expect(idle?.registryReads).toBeLessThanOrEqual(3 * 10);
    expect(watched?.entryMessages).toBeGreaterThan(0);
    expect(watched?.entryMessages).toBeLessThanOrEqual(watched?.candidates ?? 0);
    // Ten admins watch everything: together they get about 20 a second each, not 20 per shard.
    const admins = watched?.byKind.admin;
    expect(admins?.watchers).toBe(10);
    expect((admins?.messages ?? 0) / 10 / 10).toBeLessThanOrEqual(20 * 1.2);
  }, 120_000);

  it('simulates identical watchers once', () => {
    const mix = watcherMix(400, traffic, Date.now());
    const distinct = distinctWatchers(mix);
    expect(distinct.reduce((sum, watcher) => sum + watcher.copies, 0)).toBe(400);
    expect(distinct.filter((watcher) => watcher.kind === 'admin')).toEqual([expect.objectContaining({ copies: 100 })]);
  });
});
