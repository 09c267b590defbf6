import type { LiveConnection } from '../functions/live/model/live-connection';
import { closingSecond } from '../functions/live/model/live-connection';
import type { LiveFilter } from '../functions/live/model/live-filter';
import { HEAVIEST_USER, xorshift, type TrafficOptions } from './key-heat-traffic';

/**
 * The watchers of the live bench: connections with one subscription each, in four kinds (DESIGN.md
 * 7c, issue 41): a user watching its family's entries, a sub user watching its own, an admin
 * watching everything, an admin watching the failures (a status filter). Users and subs are drawn
 * among the traffic's customers, the heavy one included, uniformly: a customer's staff watch
 * whatever its share of the traffic.
 */

/** The kinds of watcher, in the order the mix cycles through them. */
export const WATCHER_KINDS = ['user', 'sub', 'admin', 'admin, status filter'] as const;
/** A kind of watcher. */
export type WatcherKind = (typeof WATCHER_KINDS)[number];

/** The status filter of the admins who watch failures. */
const FAILURES: LiveFilter = { status: ['error', 'warning'] };

/** One watcher: its connection in the registry, and its kind. */
export interface SimulatedWatcher {
  readonly kind: WatcherKind;
  readonly connection: LiveConnection;
}

/** `count` watchers of the traffic's users, the kinds in turn, deterministic for the traffic's seed. */
export function watcherMix(count: number, traffic: TrafficOptions, nowMs: number): SimulatedWatcher[] {
  const random = xorshift(traffic.seed * 31 + 17);
  const customers = traffic.users + 1;
  return Array.from({ length: count }, (_, index) => {
    const kind = WATCHER_KINDS[index % WATCHER_KINDS.length] as WatcherKind;
    // Customers are the ids 1 (the heavy one) to users + 1; staff of admin rank have ids beyond them.
    const userId = kind === 'user' || kind === 'sub' ? HEAVIEST_USER + Math.floor(random() * customers) : 1_000_000 + index;
    const connection: LiveConnection = {
      connectionId: `watcher-${index}`,
      // A sub's entries are its own: its scope is itself, as a family of one is a user's.
      caller: { userId, role: kind === 'user' ? 'user' : kind === 'sub' ? 'sub' : 'admin', parentId: kind === 'sub' ? 2_000_000 + index : null },
      tokenExpires: Math.floor(nowMs / 1000) + 3600,
      connectedAt: nowMs,
      closesAt: closingSecond(nowMs),
      directory: kind === 'user' ? { family: [userId] } : kind === 'sub' ? {} : { roots: [] },
      subscriptions: { live: kind === 'admin, status filter' ? FAILURES : {} },
      revision: 1,
    };
    return { kind, connection };
  });
}

/**
 * Watchers that would receive exactly the same messages (same scope, same filter) as one, with how
 * many there are: the simulation runs the notifier's matching and planning for one of each and
 * counts its messages as many times. Two admins watching everything get the same messages; two users
 * of the same customer too.
 */
export function distinctWatchers(watchers: readonly SimulatedWatcher[]): { readonly connection: LiveConnection; readonly kind: WatcherKind; readonly copies: number }[] {
  const bySignature = new Map<string, { connection: LiveConnection; kind: WatcherKind; copies: number }>();
  for (const { kind, connection } of watchers) {
    const scope = kind === 'user' ? connection.directory.family : kind === 'sub' ? [connection.caller.userId] : 'everyone';
    // The kind is part of it only so that messages can be told by kind; a user and a sub of one customer get the same.
    const signature = JSON.stringify([kind, scope, connection.subscriptions]);
    const known = bySignature.get(signature);
    if (known === undefined) bySignature.set(signature, { connection, kind, copies: 1 });
    else known.copies += 1;
  }
  return [...bySignature.values()];
}
