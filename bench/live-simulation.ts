import { createHash } from 'node:crypto';
import type { EntryChange } from '../functions/media-log/fold/stream-changes';
import { STATUS_FIELDS } from '../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import type { LiveMessage } from '../functions/live/model/live-messages';
import { DeliveryPlanner } from '../functions/live/notify/delivery-planner';
import { MediaLogNotifier } from '../functions/live/notify/media-log-notifier';
import { RegistryCopy } from '../functions/live/notify/registry-copy';
import type { JournalEntry } from '../functions/live/registry/journal';
import type { ConnectionsApi } from '../functions/live/registry/connections-api';
import { pipelineTraffic, type TrafficOptions } from './key-heat-traffic';
import { distinctWatchers, watcherMix, WATCHER_KINDS, type WatcherKind } from './live-watchers';

/**
 * The live media log at the design rate, simulated through the product's own notifier
 * (MediaLogNotifier, with its registry copy, watcher index and delivery planner): the key-heat
 * bench's traffic (2,000 requests/s, each followed by 8 status changes, one customer sending 40 %),
 * its changes cut into the stream's shards by entry, each shard's notifier given a batch a second on
 * a simulated clock, its `@connections` calls and registry reads counted. Watchers that would get
 * the same messages are simulated once and counted as often as they occur (live-watchers.ts).
 */

/** What a scenario (a number of watchers) came to over the counted seconds, all shards together. */
export interface ScenarioTally {
  readonly watchers: number;
  readonly shards: number;
  readonly seconds: number;
  changes: number;
  /** Subscriptions a change concerned (its old or new state matched), summed over changes. */
  candidates: number;
  entryMessages: number;
  overflowMessages: number;
  registryReads: number;
  /** The most registry reads one shard's notifier made within one second. */
  busiestShardSecond: number;
  heartbeats: number;
  /** Time the notifiers computed (matching, planning), and held batches for coalescing (simulated). */
  computeMs: number;
  heldMs: number;
  batches: number;
  /** Watchers and the messages they got, by kind. */
  readonly byKind: Record<WatcherKind, { watchers: number; messages: number }>;
}

/** The shard of an entry: stream shards follow the table's partitions, which follow a hash of the key. */
function shardOf(id: string, shards: number): number {
  return createHash('md5').update(id).digest().readUInt32BE(0) % shards;
}

/** One shard's notifier, on its own clock, its posts counted with their weights. */
class SimulatedShard {
  private clock = 0;
  private counting = false;
  private readonly registry: RegistryCopy;
  private readonly notifier: MediaLogNotifier;
  private readonly copies: ReadonlyMap<string, number>;

  public constructor(
    private readonly shardId: string,
    watchers: ReturnType<typeof distinctWatchers>,
    private readonly tally: ScenarioTally,
    journal: JournalEntry[],
  ) {
    this.copies = new Map(watchers.map((watcher) => [watcher.connection.connectionId, watcher.copies]));
    const kinds = new Map(watchers.map((watcher) => [watcher.connection.connectionId, watcher.kind]));
    const connections = watchers.map((watcher) => watcher.connection);
    // The registry does not change in the simulation; its journal carries the notifiers' heartbeats.
    this.registry = new RegistryCopy({ everything: async () => connections, journalSince: async (after) => journal.filter((entry) => entry.at > after) });
    const post = async (connectionId: string, message: LiveMessage): Promise<'sent'> => {
      if (!this.counting) return 'sent';
      const weight = this.copies.get(connectionId) ?? 1;
      if (message.type === 'entry') this.tally.entryMessages += weight;
      if (message.type === 'overflow') this.tally.overflowMessages += weight;
      this.tally.byKind[kinds.get(connectionId) as WatcherKind].messages += weight;
      return 'sent';
    };
    this.notifier = new MediaLogNotifier({
      registry: this.registry,
      planner: new DeliveryPlanner(),
      store: {
        remove: async () => undefined,
        heartbeat: async (shardId, atMs) => {
          journal.push({ kind: 'heartbeat', shardId, at: atMs });
          if (this.counting) this.tally.heartbeats += 1;
        },
      },
      connections: () => ({ post, close: async () => 'closed' }) as unknown as ConnectionsApi,
      clock: () => this.clock,
      sleep: async (ms) => {
        this.clock += ms;
        if (this.counting) this.tally.heldMs += ms;
      },
    });
  }

  /** The batch of the second ending at `atMs`, run no earlier than the last batch's run ended. */
  public async batch(changes: readonly EntryChange[], atMs: number, counting: boolean): Promise<void> {
    this.counting = counting;
    this.clock = Math.max(this.clock, atMs);
    const reads = this.registry.reads;
    const started = performance.now();
    await this.notifier.notify(changes, this.shardId);
    if (!counting) return;
    this.tally.computeMs += performance.now() - started;
    this.tally.batches += 1;
    this.tally.registryReads += this.registry.reads - reads;
    this.tally.busiestShardSecond = Math.max(this.tally.busiestShardSecond, this.registry.reads - reads);
    // Outside the timed part: the subscriptions the changes concerned, each counted as often as it occurs.
    for (const candidate of (await this.registry.watchers()).candidates(changes)) this.tally.candidates += this.copies.get(candidate.watcher.connectionId) ?? 1;
  }
}

/** One step of the traffic: a new request, or one status change of one. */
type TrafficEvent = { readonly ms: number; readonly entry: MediaLogEntry } | { readonly ms: number; readonly id: string; readonly field: (typeof STATUS_FIELDS)[number]; readonly value: MediaLogEntry['status'] };

/** The traffic as stream changes, one second at a time: each change with the entry before and after it. */
class TrafficChanges {
  private readonly due = new Map<number, TrafficEvent[]>();
  private readonly state = new Map<string, { entry: MediaLogEntry; left: number }>();
  private readonly requests: Generator<ReturnType<typeof pipelineTraffic> extends Generator<infer T> ? T : never>;

  public constructor(traffic: TrafficOptions, private readonly startMs: number, seconds: number) {
    this.requests = pipelineTraffic(traffic, new Date(startMs), seconds);
  }

  /** The changes written in second `second` of the run. */
  public next(second: number): EntryChange[] {
    for (const request of this.requests.next().value ?? []) {
      this.schedule({ ms: request.ms, entry: request.entry });
      for (const { ms, change } of request.changes) this.schedule({ ms, id: change.id, field: change.field, value: change.value });
    }
    const events = (this.due.get(second) ?? []).sort((a, b) => a.ms - b.ms);
    this.due.delete(second);
    return events.flatMap((event): EntryChange[] => {
      if ('entry' in event) {
        this.state.set(event.entry.id, { entry: event.entry, left: 2 * STATUS_FIELDS.length });
        return [{ sequence: '', after: event.entry }];
      }
      const known = this.state.get(event.id);
      if (known === undefined) return [];
      const before = known.entry;
      known.entry = { ...before, [event.field]: event.value };
      if ((known.left -= 1) === 0) this.state.delete(event.id);
      return [{ sequence: '', before, after: known.entry }];
    });
  }

  private schedule(event: TrafficEvent): void {
    const second = Math.floor((event.ms - this.startMs) / 1000);
    const events = this.due.get(second);
    if (events === undefined) this.due.set(second, [event]);
    else events.push(event);
  }
}

/** What to simulate. */
export interface SimulationOptions {
  readonly traffic: TrafficOptions;
  readonly shards: number;
  readonly watcherCounts: readonly number[];
  /** Seconds played before the counted ones, so that changes of earlier requests are in flight. */
  readonly warmupSeconds: number;
  readonly seconds: number;
}

/** Play the traffic through one notifier per shard for each number of watchers, side by side. */
export async function simulateLive(options: SimulationOptions): Promise<ScenarioTally[]> {
  const startMs = Date.UTC(2026, 0, 12, 12);
  const total = options.warmupSeconds + options.seconds;
  const traffic = new TrafficChanges(options.traffic, startMs, total);
  const scenarios = options.watcherCounts.map((watchers) => {
    const mix = watcherMix(watchers, options.traffic, startMs);
    const byKind = Object.fromEntries(WATCHER_KINDS.map((kind) => [kind, { watchers: mix.filter((watcher) => watcher.kind === kind).length, messages: 0 }])) as ScenarioTally['byKind'];
    const tally: ScenarioTally = { watchers, shards: options.shards, seconds: options.seconds, changes: 0, candidates: 0, entryMessages: 0, overflowMessages: 0, registryReads: 0, busiestShardSecond: 0, heartbeats: 0, computeMs: 0, heldMs: 0, batches: 0, byKind };
    const distinct = distinctWatchers(mix);
    const journal: JournalEntry[] = [];
    return { tally, shards: Array.from({ length: options.shards }, (_, shard) => new SimulatedShard(`shardId-${shard}`, distinct, tally, journal)) };
  });
  for (let second = 0; second < total; second += 1) {
    const counting = second >= options.warmupSeconds;
    const byShard: EntryChange[][] = Array.from({ length: options.shards }, () => []);
    for (const change of traffic.next(second)) byShard[shardOf((change.after as MediaLogEntry).id, options.shards)]?.push(change);
    // A batch reaches the notifier as the second it holds ends.
    const atMs = startMs + (second + 1) * 1000;
    for (const { tally, shards } of scenarios) {
      if (counting) tally.changes += byShard.reduce((sum, changes) => sum + changes.length, 0);
      for (const [index, shard] of shards.entries()) await shard.batch(byShard[index] as EntryChange[], atMs, counting);
    }
  }
  return scenarios.map(({ tally }) => tally);
}
