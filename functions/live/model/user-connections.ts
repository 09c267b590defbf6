import { LIVE_LIMITS } from './live-limits';

/**
 * The open connections of one user, as its `USER#<id>` / `CONNECTIONS` item lists them (each with
 * the second API Gateway closes it at the latest), and what opening one more does to that list:
 * a pure plan, run by the registry repository.
 */
export interface UserConnections {
  readonly connections: Readonly<Record<string, number>>;
  /** Counts the list's writes: a write names the version it read, so two connects never both take the last place. */
  readonly version: number;
}

/** What opening a connection makes of a user's list. */
export type OpenPlan =
  | { readonly kind: 'open'; readonly connections: Record<string, number> }
  | { readonly kind: 'full'; readonly open: readonly string[] };

/**
 * Opening `connectionId` (closed by API Gateway at `closesAt`) beside `list` at `nowSeconds`:
 * connections past their closing second are dropped (their `$disconnect` was lost), those named
 * in `gone` too (API Gateway no longer knows them); with the per-user limit reached, the plan says
 * which are still open, so that the caller may check them.
 */
export function planOpen(list: UserConnections | undefined, connectionId: string, closesAt: number, nowSeconds: number, gone: readonly string[] = []): OpenPlan {
  const open = Object.entries(list?.connections ?? {}).filter(([id, closes]) => closes > nowSeconds && !gone.includes(id) && id !== connectionId);
  if (open.length >= LIVE_LIMITS.connectionsPerUser) return { kind: 'full', open: open.map(([id]) => id) };
  return { kind: 'open', connections: { ...Object.fromEntries(open), [connectionId]: closesAt } };
}
