import type { LiveConnection } from '../model/live-connection';

/** What the sweep does about expiring connections: close some now, others when their token expires within its horizon. */
export interface ExpiryPlan {
  readonly now: readonly string[];
  readonly later: readonly { readonly connectionId: string; readonly atMs: number }[];
}

/**
 * The closes of one sweep at `nowMs` that covers the next `horizonMs` (until the next sweep): a
 * connection whose token has expired, or that API Gateway has closed already (past its two hours,
 * its `$disconnect` lost), closes now; one whose token expires before the next sweep closes then,
 * so that none outlives its token by more than moments.
 */
export function expiryPlan(connections: readonly LiveConnection[], nowMs: number, horizonMs: number): ExpiryPlan {
  const now: string[] = [];
  const later: { connectionId: string; atMs: number }[] = [];
  for (const connection of connections) {
    const expiresMs = connection.tokenExpires * 1000;
    if (expiresMs <= nowMs || connection.closesAt * 1000 <= nowMs) now.push(connection.connectionId);
    else if (expiresMs <= nowMs + horizonMs) later.push({ connectionId: connection.connectionId, atMs: expiresMs });
  }
  return { now, later: later.sort((a, b) => a.atMs - b.atMs) };
}
