import type { MediaLogEntry } from '../../media-log/model/schemas';
import { LIVE_LIMITS } from '../model/live-limits';
import type { LiveMessage } from '../model/live-messages';
import type { Candidate, Watcher } from './watcher-index';

/**
 * What the notifier sends, and when (DESIGN.md 7c): a pure planner that the notifier, its tests
 * and the live bench all run. Each subscription gets the latest state of an entry at most once per
 * `coalesceMs` (a change within that time waits, and a later change replaces it), at most its
 * share of `perSecond` entry messages a second (a token bucket), and for what it had to drop, one
 * `overflow` message a second. The share: the notifiers of a stream's shards each deliver a part
 * of every subscription's entries, so each sends `perSecond / shards` a second, together the limit,
 * and an overflow every `shards` seconds, together one a second.
 */

/** One message to one connection. */
export interface Post {
  readonly connectionId: string;
  readonly message: LiveMessage;
}

/** The limits the planner keeps. */
export interface DeliveryLimits {
  readonly coalesceMs: number;
  readonly perSecond: number;
}

/** What a subscription's deliveries are at. */
interface SubscriptionState {
  readonly watcher: Watcher;
  /** Latest state of each entry waiting to be sent, in arrival order. */
  readonly pending: Map<string, { entry: MediaLogEntry; matches: boolean }>;
  /** When each entry was last sent. */
  readonly sentAt: Map<string, number>;
  tokens: number;
  tokensAt: number;
  dropped: number;
  overflowAt: number;
}

/** What a round of planning gives: the messages due now, and when the next ones fall due (if any wait). */
export interface DueMessages {
  readonly posts: Post[];
  readonly nextDueMs?: number;
}

const keyOf = (watcher: Watcher) => `${watcher.connectionId}\n${watcher.subscription}`;

/** Plans the messages of the subscriptions one notifier serves. */
export class DeliveryPlanner {
  private readonly states = new Map<string, SubscriptionState>();

  public constructor(private readonly limits: DeliveryLimits = { coalesceMs: LIVE_LIMITS.coalesceMs, perSecond: LIVE_LIMITS.entryMessagesPerSecond }) {}

  /** Take the candidates of a batch: each entry's latest state waits in its subscription's queue. */
  public offer(candidates: readonly Candidate[], nowMs: number): void {
    for (const { watcher, entry, matches } of candidates) {
      const key = keyOf(watcher);
      let state = this.states.get(key);
      if (state === undefined) {
        // A full bucket: the first refill caps it at this notifier's share.
        state = { watcher, pending: new Map(), sentAt: new Map(), tokens: Infinity, tokensAt: nowMs, dropped: 0, overflowAt: -Infinity };
        this.states.set(key, state);
      }
      // A newer state of a waiting entry replaces it, and keeps its place.
      state.pending.set(entry.id, { entry, matches });
    }
  }

  /** The messages due at `nowMs`, this notifier being one of `shards` that serve each subscription. */
  public due(nowMs: number, shards = 1): DueMessages {
    const posts: Post[] = [];
    let nextDueMs: number | undefined;
    const later = (at: number) => {
      nextDueMs = nextDueMs === undefined ? at : Math.min(nextDueMs, at);
    };
    for (const [key, state] of this.states) {
      this.refill(state, nowMs, shards);
      for (const [id, waiting] of state.pending) {
        const sent = state.sentAt.get(id);
        if (sent !== undefined && sent + this.limits.coalesceMs > nowMs) {
          later(sent + this.limits.coalesceMs);
          continue;
        }
        state.pending.delete(id);
        if (state.tokens < 1) {
          state.dropped += 1;
          continue;
        }
        state.tokens -= 1;
        state.sentAt.set(id, nowMs);
        posts.push({ connectionId: state.watcher.connectionId, message: { type: 'entry', subscription: state.watcher.subscription, entry: waiting.entry, matches: waiting.matches } });
      }
      if (state.dropped > 0) {
        const overflowDue = state.overflowAt + 1000 * shards;
        if (overflowDue <= nowMs) {
          posts.push({ connectionId: state.watcher.connectionId, message: { type: 'overflow', subscription: state.watcher.subscription, dropped: state.dropped } });
          state.dropped = 0;
          state.overflowAt = nowMs;
        } else later(overflowDue);
      }
      this.prune(key, state, nowMs, shards);
    }
    return { posts, ...(nextDueMs === undefined ? {} : { nextDueMs }) };
  }

  /** Forget every subscription of a connection (it closed). */
  public forget(connectionId: string): void {
    for (const [key, state] of this.states) if (state.watcher.connectionId === connectionId) this.states.delete(key);
  }

  /** Subscriptions with something still to send. */
  public get waiting(): number {
    return [...this.states.values()].filter((state) => state.pending.size > 0 || state.dropped > 0).length;
  }

  /** A bucket holds one second of its rate, and at least one message. */
  private capacity(shards: number): number {
    return Math.max(1, this.limits.perSecond / shards);
  }

  private refill(state: SubscriptionState, nowMs: number, shards: number): void {
    const rate = this.limits.perSecond / shards;
    state.tokens = Math.min(this.capacity(shards), state.tokens + ((nowMs - state.tokensAt) / 1000) * rate);
    state.tokensAt = nowMs;
  }

  /** Forget what no longer constrains anything: entries sent over a window ago, subscriptions at rest with a full bucket. */
  private prune(key: string, state: SubscriptionState, nowMs: number, shards: number): void {
    for (const [id, at] of state.sentAt) if (at + this.limits.coalesceMs <= nowMs) state.sentAt.delete(id);
    const idle = state.pending.size === 0 && state.dropped === 0 && state.sentAt.size === 0 && state.overflowAt + 1000 * shards <= nowMs;
    if (idle && state.tokens >= this.capacity(shards)) this.states.delete(key);
  }
}
