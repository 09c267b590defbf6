import type { IdentityRepository } from '../../auth/identity-repository';
import type { Caller, Role } from '../../shared/access/roles';
import { ForbiddenError, ProblemError, UnauthorizedError } from '../../shared/errors';
import { allowedOrigin, type CorsPolicy } from '../../shared/http/cors-policy';
import type { UserScopeReader } from '../../shared/tables/user-scope-reader';
import { closingSecond, type LiveConnection } from '../model/live-connection';
import { LIVE_LIMITS } from '../model/live-limits';
import { readScopeDirectory } from '../model/scope-directory';
import { planOpen } from '../model/user-connections';
import type { ConnectionsApi } from '../registry/connections-api';
import { RegistryConflictError, type RegistryRepository } from '../registry/registry-repository';
import type { TicketRepository } from '../ticket/ticket-repository';
import { isTicketSyntax, ticketHash } from '../ticket/tickets';

/** What `$connect` knows of a connection being made. */
export interface ConnectRequest {
  readonly connectionId: string;
  /** When API Gateway accepted it (epoch milliseconds). */
  readonly connectedAt: number;
  readonly ticket: string | undefined;
  /** The page's origin (`Origin`), when a browser connects. */
  readonly origin: string | undefined;
}

/** Tries of a registration that lost a race with another of the same user. */
const REGISTRATION_TRIES = 3;

/**
 * Opening and closing connections of the live media log (DESIGN.md 7c). A connection is made with a
 * one-time ticket from a page of an allowed origin (cross-site WebSocket hijacking, CORS origins
 * of DESIGN.md 5a), for an active user, within the per-user limit; it is registered with what
 * decides its scope, read once now.
 */
export class LiveConnections {
  public constructor(
    private readonly parts: {
      readonly tickets: TicketRepository;
      readonly registry: RegistryRepository;
      readonly identities: IdentityRepository;
      readonly scopes: UserScopeReader;
      readonly connections: () => ConnectionsApi;
      readonly cors: () => CorsPolicy;
    },
  ) {}

  /** Accept and register a connection, or refuse it with a problem (401, 403, 429). */
  public async open(request: ConnectRequest, nowMs = Date.now()): Promise<LiveConnection> {
    // A browser always sends its page's origin; a client that sends none is no page another site runs.
    if (request.origin !== undefined && allowedOrigin(this.parts.cors(), request.origin) === undefined) {
      throw new ForbiddenError('Pages of this origin may not open the live media log.');
    }
    const caller = await this.ticketHolder(request.ticket, nowMs);
    const connection: LiveConnection = {
      connectionId: request.connectionId,
      caller: caller.caller,
      tokenExpires: caller.tokenExpires,
      connectedAt: request.connectedAt,
      closesAt: closingSecond(request.connectedAt),
      directory: await readScopeDirectory(caller.caller, this.parts.scopes),
      subscriptions: {},
      revision: 0,
    };
    await this.register(connection, nowMs);
    return connection;
  }

  /** Forget a connection (its `$disconnect`, or after it was found gone); harmless when it is gone already. */
  public async close(connectionId: string, nowMs = Date.now()): Promise<void> {
    await this.parts.registry.remove(connectionId, nowMs);
  }

  /** The active user a ticket was issued to, taken once; the ticket is never logged, nor why it failed beyond "refused". */
  private async ticketHolder(ticket: string | undefined, nowMs: number): Promise<{ caller: Caller; tokenExpires: number }> {
    const nowSeconds = Math.floor(nowMs / 1000);
    const grant = isTicketSyntax(ticket) ? await this.parts.tickets.take(ticketHash(ticket), nowSeconds) : undefined;
    if (grant === undefined) throw new UnauthorizedError('The ticket is unknown, used or expired: ask POST /media/log/live for a new one.');
    if (grant.tokenExpires <= nowSeconds) throw new UnauthorizedError('The token that obtained the ticket has expired.');
    const profile = await this.parts.identities.storedProfile(grant.userId);
    if (profile === null) throw new UnauthorizedError('The user of this ticket no longer exists.');
    if (profile.status !== 'active') throw new ForbiddenError();
    const caller: Caller = { userId: grant.userId, role: profile.role as Role, parentId: (profile.parentId as number | null | undefined) ?? null };
    return { caller, tokenExpires: grant.tokenExpires };
  }

  /**
   * Register the connection in its user's list and the registry, within the per-user limit. At the
   * limit, the listed connections are asked whether they are still open (a lost `$disconnect`
   * leaves one listed until API Gateway's two hours are over) and the gone ones dropped.
   */
  private async register(connection: LiveConnection, nowMs: number): Promise<void> {
    const nowSeconds = Math.floor(nowMs / 1000);
    for (let attempt = 1; ; attempt += 1) {
      const list = await this.parts.registry.userConnections(connection.caller.userId);
      let plan = planOpen(list, connection.connectionId, connection.closesAt, nowSeconds);
      if (plan.kind === 'full') {
        const open = await Promise.all(plan.open.map((id) => this.parts.connections().isOpen(id)));
        plan = planOpen(list, connection.connectionId, connection.closesAt, nowSeconds, plan.open.filter((_, index) => !open[index]));
      }
      if (plan.kind === 'full') {
        throw new ProblemError('throttled', { detail: `A user may hold at most ${LIVE_LIMITS.connectionsPerUser} live connections at once; close one first.` });
      }
      try {
        await this.parts.registry.open(connection, list, plan.connections);
        return;
      } catch (error) {
        if (!(error instanceof RegistryConflictError) || attempt >= REGISTRATION_TRIES) throw error;
      }
    }
  }
}
