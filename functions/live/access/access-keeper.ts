import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import type { LiveConnection } from '../model/live-connection';
import { readScopeDirectory } from '../model/scope-directory';
import type { ConnectionsApi } from '../registry/connections-api';
import { RegistryConflictError, type RegistryRepository } from '../registry/registry-repository';
import type { AccessChange } from './access-changes';

/** Connections closed or revised at once. */
const IN_FLIGHT = 16;

/** What applying access changes did. */
export interface AccessOutcome {
  readonly closed: number;
  readonly revised: number;
}

/**
 * Keeps the live connections within their users' access: closes a connection whose user lost it
 * (first out of the registry, so the notifier stops serving it, then through `@connections`, which
 * makes API Gateway end it), and gives a connection whose scope changed its new scope directory.
 */
export class AccessKeeper {
  public constructor(
    private readonly parts: {
      readonly registry: RegistryRepository;
      readonly scopes: Pick<UserScopeReader, 'familyMemberIds' | 'rootUserIds'>;
      readonly connections: () => ConnectionsApi;
    },
  ) {}

  /** Apply what a batch of user changes asks. */
  public async apply(changes: readonly AccessChange[], nowMs = Date.now()): Promise<AccessOutcome> {
    let closed = 0;
    let revised = 0;
    for (const change of changes) {
      if (change.kind === 'revoke') closed += await this.closeAll(await this.connectionIdsOf(change.userId), nowMs);
      else revised += await this.refresh(change.kind === 'refresh-admins' ? await this.adminConnections() : await this.connectionsOf(change.headId), nowMs);
    }
    return { closed, revised };
  }

  /** Close connections: out of the registry, then ended by API Gateway (one already gone is no failure). */
  public async closeAll(connectionIds: readonly string[], nowMs = Date.now()): Promise<number> {
    await mapConcurrently(connectionIds, IN_FLIGHT, async (connectionId) => {
      await this.parts.registry.remove(connectionId, nowMs);
      await this.parts.connections().close(connectionId);
    });
    return connectionIds.length;
  }

  private async connectionIdsOf(userId: number): Promise<string[]> {
    return Object.keys((await this.parts.registry.userConnections(userId))?.connections ?? {});
  }

  private async connectionsOf(userId: number): Promise<LiveConnection[]> {
    const found = await Promise.all((await this.connectionIdsOf(userId)).map((id) => this.parts.registry.connection(id)));
    return found.filter((connection): connection is LiveConnection => connection !== undefined);
  }

  private async adminConnections(): Promise<LiveConnection[]> {
    return (await this.parts.registry.everything()).filter((connection) => connection.caller.role === 'admin');
  }

  /** Read each connection's scope directory again (once per user) and store it, as a revision the notifiers hear of. */
  private async refresh(connections: readonly LiveConnection[], nowMs: number): Promise<number> {
    const directories = new Map<number, ReturnType<typeof readScopeDirectory>>();
    const results = await mapConcurrently(connections, IN_FLIGHT, async (connection) => {
      const { caller } = connection;
      if (!directories.has(caller.userId)) directories.set(caller.userId, readScopeDirectory(caller, this.parts.scopes));
      const directory = await (directories.get(caller.userId) as ReturnType<typeof readScopeDirectory>);
      for (let current: LiveConnection | undefined = connection, attempt = 0; current !== undefined && attempt < 3; attempt += 1) {
        try {
          await this.parts.registry.revise(current, { subscriptions: current.subscriptions, directory }, nowMs);
          return 1;
        } catch (error) {
          if (!(error instanceof RegistryConflictError)) throw error;
          current = await this.parts.registry.connection(connection.connectionId);
        }
      }
      return 0;
    });
    return results.reduce((sum: number, count) => sum + count, 0);
  }
}
