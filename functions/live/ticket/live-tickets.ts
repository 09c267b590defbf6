import type { Caller } from '../../shared/access/roles';
import { LIVE_LIMITS } from '../model/live-limits';
import { closingSecond } from '../model/live-connection';
import type { TicketRepository } from './ticket-repository';
import { newTicket, ticketHash, ticketUrl } from './tickets';

/** What `POST /media/log/live` answers: the URL to connect to, and until when it works. */
export interface LiveTicket {
  readonly url: string;
  readonly expires: string;
}

/** Issues tickets for the live media log, each bound to its caller and to its token's life. */
export class LiveTickets {
  public constructor(
    private readonly tickets: TicketRepository,
    private readonly websocketUrl: string,
  ) {}

  /**
   * A ticket for `caller`, valid for {@link LIVE_LIMITS.ticketSeconds}. Its connection closes when
   * the token expires (`tokenExpires`); a token whose `exp` the authorizer did not pass on lives
   * as long as API Gateway lets a connection live.
   */
  public async issue(caller: Caller, tokenExpires: number | undefined, nowMs = Date.now()): Promise<LiveTicket> {
    const ticket = newTicket();
    const expiresAt = Math.floor(nowMs / 1000) + LIVE_LIMITS.ticketSeconds;
    await this.tickets.store(ticketHash(ticket), { userId: caller.userId, tokenExpires: tokenExpires ?? closingSecond(nowMs) }, expiresAt);
    return { url: ticketUrl(this.websocketUrl, ticket), expires: new Date(expiresAt * 1000).toISOString() };
  }
}
