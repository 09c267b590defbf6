import { createHash, randomBytes } from 'node:crypto';

/**
 * One-time tickets of the live media log (DESIGN.md 7c): the WebSocket URL carries one instead of
 * the bearer token (URLs land in access logs). A ticket is 256 random bits, written base64url; the
 * table keeps only its SHA-256, so neither the table nor its backups hold a usable ticket.
 */

/** A ticket as clients carry it: 43 base64url characters (32 bytes). */
const TICKET_SYNTAX = /^[A-Za-z0-9_-]{43}$/;

/** The query parameter of the WebSocket URL that carries the ticket. */
export const TICKET_PARAMETER = 'ticket';

/** A new random ticket. */
export function newTicket(): string {
  return randomBytes(32).toString('base64url');
}

/** Whether a value could be a ticket at all (anything else is refused without a read). */
export function isTicketSyntax(value: unknown): value is string {
  return typeof value === 'string' && TICKET_SYNTAX.test(value);
}

/** What the table keeps of a ticket: its SHA-256, base64url. */
export function ticketHash(ticket: string): string {
  return createHash('sha256').update(ticket).digest('base64url');
}

/** The URL a ticket opens: the WebSocket URL with the ticket in its query. */
export function ticketUrl(websocketUrl: string, ticket: string): string {
  const url = new URL(websocketUrl);
  url.searchParams.set(TICKET_PARAMETER, ticket);
  return url.toString();
}
