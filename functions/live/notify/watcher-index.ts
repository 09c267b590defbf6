import type { EntryChange } from '../../media-log/fold/stream-changes';
import type { MediaLogEntry } from '../../media-log/model/schemas';
import { matchesSubscription, subscriptionMatch, type SubscriptionMatch } from '../model/live-filter';
import type { LiveConnection } from '../model/live-connection';
import { subscriptionScope } from '../model/scope-directory';

/**
 * The notifier's view of the watchers: every subscription of the registry with what an entry must
 * satisfy, grouped by that condition (a thousand admins watching everything are one check per
 * change, not a thousand) and indexed by user where the condition names users (a user's
 * subscription is looked at only for its family's entries). Matching reads no entry and no user:
 * the stream's images and the registry's kept scopes are all it needs.
 */

/** One subscription of one connection. */
export interface Watcher {
  readonly connectionId: string;
  readonly subscription: string;
}

/** Subscriptions that share one condition. */
interface WatcherGroup {
  readonly match: SubscriptionMatch;
  readonly watchers: Watcher[];
}

/** What one change is to one subscription: its entry's latest state, and whether that state matches. */
export interface Candidate {
  readonly watcher: Watcher;
  readonly entry: MediaLogEntry;
  readonly matches: boolean;
}

/** The condition of each subscription of a connection. */
export async function connectionMatches(connection: LiveConnection): Promise<{ subscription: string; match: SubscriptionMatch }[]> {
  return Promise.all(
    Object.entries(connection.subscriptions).map(async ([subscription, filter]) => ({
      subscription,
      match: subscriptionMatch(filter, await subscriptionScope(connection.caller, connection.directory, filter['user-id'])),
    })),
  );
}

/** An index of the watchers of a set of connections, built from their conditions. */
export class WatcherIndex {
  private readonly everyone: WatcherGroup[] = [];
  private readonly byUser = new Map<number, WatcherGroup[]>();
  public readonly size: number;

  public constructor(subscriptions: readonly { readonly watcher: Watcher; readonly match: SubscriptionMatch }[]) {
    const groups = new Map<string, WatcherGroup>();
    for (const { watcher, match } of subscriptions) {
      const signature = JSON.stringify(match);
      let group = groups.get(signature);
      if (group === undefined) {
        group = { match, watchers: [] };
        groups.set(signature, group);
        this.place(group);
      }
      group.watchers.push(watcher);
    }
    this.size = subscriptions.length;
  }

  /** Every subscription that a change concerns: its new state matches, or its old state did (it left the filter). */
  public candidates(changes: readonly EntryChange[]): Candidate[] {
    const found: Candidate[] = [];
    for (const { before, after } of changes) {
      // A removal (retention's TTL) is no change of the request: nothing to tell.
      if (after === undefined) continue;
      // The entry as the listing shows it: the family an item is counted in is the table's, not the API's.
      const { family: _family, ...entry } = after;
      for (const group of this.groupsFor(after, before)) {
        const matches = matchesSubscription(after, group.match);
        if (!matches && (before === undefined || !matchesSubscription(before, group.match))) continue;
        for (const watcher of group.watchers) found.push({ watcher, entry, matches });
      }
    }
    return found;
  }

  private place(group: WatcherGroup): void {
    const users = group.match.parts.userIds;
    if (users === undefined) {
      this.everyone.push(group);
      return;
    }
    for (const userId of users) this.byUser.set(userId, [...(this.byUser.get(userId) ?? []), group]);
  }

  private groupsFor(after: MediaLogEntry, before: MediaLogEntry | undefined): WatcherGroup[] {
    const own = this.byUser.get(after['user-id']) ?? [];
    // An entry keeps its user; were it ever moved, the old user's watchers see it leave.
    const previous = before !== undefined && before['user-id'] !== after['user-id'] ? (this.byUser.get(before['user-id']) ?? []) : [];
    return [...this.everyone, ...own, ...previous.filter((group) => !own.includes(group))];
  }
}
