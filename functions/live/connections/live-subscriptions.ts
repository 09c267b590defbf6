import { ConflictError, NotFoundError, UnauthorizedError } from '../../shared/errors';
import type { LiveFilter } from '../model/live-filter';
import { LIVE_LIMITS } from '../model/live-limits';
import type { LiveConnection } from '../model/live-connection';
import type { LiveMessage } from '../model/live-messages';
import { RegistryConflictError, type RegistryRepository } from '../registry/registry-repository';

/** Tries of a change that lost a race with another change of the same connection. */
const REVISION_TRIES = 3;

/**
 * The subscriptions of a connection (DESIGN.md 7c): each has the client's id and a filter of
 * GET /media/log, at most {@link LIVE_LIMITS.subscriptionsPerConnection} per connection. A change
 * is a revision of the connection in the registry, journaled for the notifiers.
 */
export class LiveSubscriptions {
  public constructor(private readonly registry: RegistryRepository) {}

  /** Add subscription `id` with `filter`. */
  public async subscribe(connectionId: string, id: string, filter: LiveFilter, nowMs = Date.now()): Promise<LiveMessage> {
    await this.revise(connectionId, nowMs, (subscriptions) => {
      if (subscriptions[id] !== undefined) throw new ConflictError(`A subscription named "${id}" exists on this connection: unsubscribe it first, or name this one otherwise.`);
      if (Object.keys(subscriptions).length >= LIVE_LIMITS.subscriptionsPerConnection) {
        throw new ConflictError(`A connection holds at most ${LIVE_LIMITS.subscriptionsPerConnection} subscriptions: unsubscribe one first.`);
      }
      return { ...subscriptions, [id]: filter };
    });
    return { type: 'subscribed', id };
  }

  /** End subscription `id`. */
  public async unsubscribe(connectionId: string, id: string, nowMs = Date.now()): Promise<LiveMessage> {
    await this.revise(connectionId, nowMs, (subscriptions) => {
      if (subscriptions[id] === undefined) throw new NotFoundError(`This connection has no subscription named "${id}".`);
      return Object.fromEntries(Object.entries(subscriptions).filter(([name]) => name !== id));
    });
    return { type: 'unsubscribed', id };
  }

  private async revise(connectionId: string, nowMs: number, change: (subscriptions: LiveConnection['subscriptions']) => LiveConnection['subscriptions']): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const connection = await this.registry.connection(connectionId);
      if (connection === undefined) throw new NotFoundError('This connection is no longer registered: connect again with a new ticket.');
      if (connection.tokenExpires * 1000 <= nowMs) throw new UnauthorizedError('The token that opened this connection has expired: connect again with a new ticket.');
      try {
        await this.registry.revise(connection, { subscriptions: change(connection.subscriptions), directory: connection.directory }, nowMs);
        return;
      } catch (error) {
        if (!(error instanceof RegistryConflictError) || attempt >= REVISION_TRIES) throw error;
      }
    }
  }
}
