import type { EntryChange } from '../../media-log/fold/stream-changes';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import type { ConnectionsApi } from '../registry/connections-api';
import type { RegistryRepository } from '../registry/registry-repository';
import type { DeliveryPlanner, Post } from './delivery-planner';
import type { RefreshKind, RegistryCopy } from './registry-copy';

/** What one batch came to. */
export interface NotifyOutcome {
  readonly refresh: RefreshKind;
  readonly watchers: number;
  readonly candidates: number;
  readonly posts: number;
  /** Connections found gone (and removed from the registry). */
  readonly gone: number;
  /** Connections closed because their token expired. */
  readonly expired: number;
}

/** Connections sent to at once; each connection's messages go one after the other, in order. */
const CONNECTIONS_IN_FLIGHT = 32;

/** Longest a batch waits for messages that coalescing holds back: their window, and a little. */
const MAX_HOLD_MS = 1500;

/** What the notifier works with. */
export interface NotifierParts {
  readonly registry: RegistryCopy;
  readonly planner: DeliveryPlanner;
  readonly store: Pick<RegistryRepository, 'remove' | 'heartbeat'>;
  readonly connections: () => ConnectionsApi;
  readonly clock: () => number;
  readonly sleep: (ms: number) => Promise<void>;
}

/**
 * The live media log's notifier (DESIGN.md 7c): for a batch of the media log's stream, the
 * subscriptions each change concerns, from the stream's images and a copy of the registry read at
 * most once a second, never an entry or a user; their messages, coalesced and rate-limited by the
 * planner; posted through `@connections`. With no watcher it reads the registry and posts nothing.
 * A connection found gone leaves the registry; one whose token expired is closed instead of served.
 */
export class MediaLogNotifier {
  public constructor(private readonly parts: NotifierParts) {}

  /** Notify the watchers of one batch's changes, from the notifier of shard `shardId`. */
  public async notify(changes: readonly EntryChange[], shardId?: string): Promise<NotifyOutcome> {
    const { registry, planner, clock } = this.parts;
    const now = clock();
    const refresh = await registry.refresh(now);
    const index = await registry.watchers();
    const candidates = index.size === 0 ? [] : index.candidates(changes);
    planner.offer(candidates, now);
    if (shardId !== undefined && index.size > 0 && registry.heartbeatDue(shardId, now)) {
      await this.parts.store.heartbeat(shardId, now);
      registry.heard(shardId, now);
    }
    const sent = { posts: 0, gone: 0, expired: 0 };
    for (let round = planner.due(now, registry.shardCount(now, shardId)); ; ) {
      const result = await this.send(round.posts);
      sent.posts += result.posts;
      sent.gone += result.gone;
      sent.expired += result.expired;
      if (round.nextDueMs === undefined || round.nextDueMs - now > MAX_HOLD_MS) break;
      await this.parts.sleep(Math.max(0, round.nextDueMs - clock()));
      round = planner.due(clock(), registry.shardCount(clock(), shardId));
    }
    return { refresh, watchers: index.size, candidates: candidates.length, ...sent };
  }

  /** Post each connection's messages in order, connections side by side. */
  private async send(posts: readonly Post[]): Promise<{ posts: number; gone: number; expired: number }> {
    const byConnection = new Map<string, Post[]>();
    for (const post of posts) byConnection.set(post.connectionId, [...(byConnection.get(post.connectionId) ?? []), post]);
    const outcomes = await mapConcurrently([...byConnection], CONNECTIONS_IN_FLIGHT, ([connectionId, messages]) => this.sendTo(connectionId, messages));
    return {
      posts: outcomes.reduce((sum, outcome) => sum + outcome.posts, 0),
      gone: outcomes.filter((outcome) => outcome.end === 'gone').length,
      expired: outcomes.filter((outcome) => outcome.end === 'expired').length,
    };
  }

  private async sendTo(connectionId: string, messages: readonly Post[]): Promise<{ posts: number; end?: 'gone' | 'expired' }> {
    const connection = this.parts.registry.connection(connectionId);
    if (connection === undefined) return { posts: 0 };
    if (connection.tokenExpires * 1000 <= this.parts.clock()) {
      await this.parts.connections().close(connectionId);
      await this.drop(connectionId);
      return { posts: 0, end: 'expired' };
    }
    let posted = 0;
    for (const { message } of messages) {
      if ((await this.parts.connections().post(connectionId, message)) === 'gone') {
        await this.drop(connectionId);
        return { posts: posted, end: 'gone' };
      }
      posted += 1;
    }
    return { posts: posted };
  }

  private async drop(connectionId: string): Promise<void> {
    const now = this.parts.clock();
    await this.parts.store.remove(connectionId, now);
    this.parts.registry.forget(connectionId, now);
    this.parts.planner.forget(connectionId);
  }
}
