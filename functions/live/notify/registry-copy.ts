import type { LiveConnection } from '../model/live-connection';
import { LIVE_LIMITS } from '../model/live-limits';
import type { JournalEntry } from '../registry/journal';
import { connectionMatches, WatcherIndex } from './watcher-index';

/** How the notifier keeps its copy of the watcher registry. */
export const REGISTRY_COPY = {
  /** At most one read of the registry a second (DESIGN.md 7c), whatever the batches: a subscription is heard of within that. */
  refreshMs: LIVE_LIMITS.subscriptionEffectMs,
  /** A full read now and then, in place of that second's journal read: a copy never drifts for long. */
  fullEveryMs: 10 * 60_000,
  /** Each journal read goes back this far before the last one: writers' clocks differ a little. */
  overlapMs: 5000,
  /** A notifier says it delivers this often, and counts the shards heard from within `shardMemoryMs`. */
  heartbeatMs: 20_000,
  shardMemoryMs: 60_000,
} as const;

/** What the copy reads: every connection (all registry partitions), or the journal after a time. */
export interface RegistrySource {
  readonly everything: () => Promise<LiveConnection[]>;
  readonly journalSince: (afterMs: number) => Promise<JournalEntry[]>;
}

/** What a refresh did: nothing (read within the second), a journal read, or a full read. */
export type RefreshKind = 'none' | 'journal' | 'full';

/** When the copy reads next, and how: a pure decision on when it last read. */
export function refreshPlan(loadedAt: number | undefined, refreshedAt: number | undefined, nowMs: number): RefreshKind {
  if (loadedAt === undefined || nowMs - loadedAt >= REGISTRY_COPY.fullEveryMs) return 'full';
  return refreshedAt !== undefined && nowMs - refreshedAt < REGISTRY_COPY.refreshMs ? 'none' : 'journal';
}

/** A connection as the copy knows it: its latest revision, and its state (none once removed). */
interface Known {
  readonly revision: number;
  readonly connection?: LiveConnection;
  readonly at: number;
}

/**
 * The notifier's copy of the watcher registry, read at most once a second: the journal's changes
 * since the last read, or now and then everything. Each connection's revision makes a change apply
 * once and never an older one over a newer, so reads may overlap; the journal's heartbeats tell
 * how many shards' notifiers share the subscriptions' rate limits.
 */
export class RegistryCopy {
  private readonly known = new Map<string, Known>();
  private readonly shards = new Map<string, number>();
  private loadedAt: number | undefined;
  private refreshedAt: number | undefined;
  private readAfter = 0;
  private index: WatcherIndex | undefined;
  private readonly matchCache = new Map<string, { revision: number; matches: Awaited<ReturnType<typeof connectionMatches>> }>();
  /** Reads of the registry so far (a journal read or a full read each). */
  public reads = 0;

  public constructor(private readonly source: RegistrySource) {}

  /** Bring the copy up to date, reading at most once a second. */
  public async refresh(nowMs: number): Promise<RefreshKind> {
    const kind = refreshPlan(this.loadedAt, this.refreshedAt, nowMs);
    if (kind === 'none') return kind;
    this.reads += 1;
    if (kind === 'full') this.load(await this.source.everything(), nowMs);
    else this.apply(await this.source.journalSince(this.readAfter - REGISTRY_COPY.overlapMs), nowMs);
    this.refreshedAt = nowMs;
    return kind;
  }

  /** The connection `connectionId` as last read, if it is registered. */
  public connection(connectionId: string): LiveConnection | undefined {
    return this.known.get(connectionId)?.connection;
  }

  /** Whether any connection has a subscription. */
  public get watching(): boolean {
    return [...this.known.values()].some((known) => known.connection !== undefined && Object.keys(known.connection.subscriptions).length > 0);
  }

  /** The watchers, indexed; rebuilt only after a change. */
  public async watchers(): Promise<WatcherIndex> {
    if (this.index !== undefined) return this.index;
    const subscriptions = [];
    for (const [connectionId, known] of this.known) {
      if (known.connection === undefined) continue;
      let cached = this.matchCache.get(connectionId);
      if (cached?.revision !== known.revision) {
        cached = { revision: known.revision, matches: await connectionMatches(known.connection) };
        this.matchCache.set(connectionId, cached);
      }
      subscriptions.push(...cached.matches.map(({ subscription, match }) => ({ watcher: { connectionId, subscription }, match })));
    }
    this.index = new WatcherIndex(subscriptions);
    return this.index;
  }

  /** Forget a connection found gone, until the registry says more of it. */
  public forget(connectionId: string, nowMs: number): void {
    const known = this.known.get(connectionId);
    this.known.set(connectionId, { revision: known?.revision ?? 0, at: nowMs });
    this.changed();
  }

  /** How many notifiers (this one included) delivered within the shard memory. */
  public shardCount(nowMs: number, self: string | undefined): number {
    const heard = [...this.shards].filter(([shard, at]) => shard !== self && at >= nowMs - REGISTRY_COPY.shardMemoryMs).length;
    return heard + 1;
  }

  /** Whether this notifier should say again that it delivers. */
  public heartbeatDue(self: string, nowMs: number): boolean {
    return (this.shards.get(self) ?? -Infinity) + REGISTRY_COPY.heartbeatMs <= nowMs;
  }

  /** Note this notifier's own heartbeat. */
  public heard(shard: string, atMs: number): void {
    this.shards.set(shard, Math.max(this.shards.get(shard) ?? -Infinity, atMs));
  }

  private load(connections: readonly LiveConnection[], nowMs: number): void {
    const previous = new Map(this.known);
    this.known.clear();
    for (const connection of connections) {
      const newer = previous.get(connection.connectionId);
      this.known.set(connection.connectionId, newer !== undefined && newer.revision > connection.revision ? newer : { revision: connection.revision, connection, at: nowMs });
    }
    // The next journal read goes back far enough to hear every notifier's heartbeat.
    this.readAfter = nowMs - REGISTRY_COPY.shardMemoryMs;
    this.loadedAt = nowMs;
    this.changed();
  }

  private apply(entries: readonly JournalEntry[], nowMs: number): void {
    for (const entry of entries) {
      if (entry.kind === 'heartbeat') {
        this.heard(entry.shardId, entry.at);
        continue;
      }
      const known = this.known.get(entry.connectionId);
      if (known !== undefined && known.revision >= entry.revision) continue;
      this.known.set(entry.connectionId, { revision: entry.revision, ...(entry.connection === undefined ? {} : { connection: entry.connection }), at: nowMs });
      this.changed();
    }
    this.readAfter = nowMs;
    // A removed connection is remembered past any overlap, so that an older change read again stays ignored.
    for (const [id, known] of this.known) if (known.connection === undefined && known.at < nowMs - REGISTRY_COPY.shardMemoryMs) this.known.delete(id);
  }

  private changed(): void {
    this.index = undefined;
  }
}
