import type { Caller, Role } from '../../shared/access/roles';
import { LIVE_CONNECTION_ATTRIBUTES } from '../../shared/tables/live-connections-table';
import type { LiveFilter } from './live-filter';
import { WEBSOCKET_QUOTAS } from './live-limits';
import { liveKeys } from './live-keys';
import type { ScopeDirectory } from './scope-directory';

/**
 * A connection of the live media log as the registry keeps it: who it is (the caller as stored when
 * it connected), until when its token and API Gateway let it live, what decides its scope, and
 * its subscriptions. `revision` counts its changes, so that a reader of the journal applies each
 * change once and never an older one over a newer.
 */
export interface LiveConnection {
  readonly connectionId: string;
  readonly caller: Caller;
  /** The `exp` (epoch seconds) of the token that obtained the ticket: the connection closes then. */
  readonly tokenExpires: number;
  /** When it connected (epoch milliseconds). */
  readonly connectedAt: number;
  /** When API Gateway closes it whatever happens (epoch seconds): two hours after it connected. */
  readonly closesAt: number;
  readonly directory: ScopeDirectory;
  readonly subscriptions: Readonly<Record<string, LiveFilter>>;
  readonly revision: number;
}

/** The second a connection that connected at `connectedAt` (epoch ms) is closed by API Gateway. */
export function closingSecond(connectedAt: number): number {
  return Math.ceil(connectedAt / 1000) + WEBSOCKET_QUOTAS.connectionSeconds;
}

/** How long an item of a connection outlives it: TTL removes what a lost `$disconnect` left behind. */
const KEPT_AFTER_CLOSE_SECONDS = 600;

/** The fields of a connection as its registry item and its journal entries hold them. */
export function connectionFields(connection: LiveConnection): Record<string, unknown> {
  const { caller } = connection;
  return {
    connectionId: connection.connectionId,
    userId: caller.userId,
    role: caller.role,
    ...(caller.parentId === null ? {} : { parentId: caller.parentId }),
    tokenExpires: connection.tokenExpires,
    connectedAt: connection.connectedAt,
    closesAt: connection.closesAt,
    directory: connection.directory,
    subscriptions: connection.subscriptions,
    revision: connection.revision,
  };
}

/** The registry item of a connection. */
export function connectionItem(connection: LiveConnection): Record<string, unknown> {
  return {
    ...liveKeys.connection(connection.connectionId),
    ...connectionFields(connection),
    [LIVE_CONNECTION_ATTRIBUTES.expiresAt]: connection.closesAt + KEPT_AFTER_CLOSE_SECONDS,
  };
}

/** The connection a registry item (or a journal entry's fields) holds; the service wrote it, so it is trusted. */
export function connectionOf(fields: Readonly<Record<string, unknown>>): LiveConnection {
  return {
    connectionId: fields.connectionId as string,
    caller: { userId: fields.userId as number, role: fields.role as Role, parentId: (fields.parentId as number | undefined) ?? null },
    tokenExpires: fields.tokenExpires as number,
    connectedAt: fields.connectedAt as number,
    closesAt: fields.closesAt as number,
    directory: (fields.directory as ScopeDirectory | undefined) ?? {},
    subscriptions: (fields.subscriptions as Record<string, LiveFilter> | undefined) ?? {},
    revision: fields.revision as number,
  };
}
