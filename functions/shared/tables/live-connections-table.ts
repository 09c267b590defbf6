import type { TableDefinition } from './table-definition';
import { TABLE_NAMES } from './table-names';

/** Attribute names of the live connections table that its definition and its readers share. */
export const LIVE_CONNECTION_ATTRIBUTES = {
  /** When the item may go (epoch seconds): DynamoDB's TTL removes it some time after. */
  expiresAt: 'expiresAt',
} as const;

/**
 * The live media log's connections (DESIGN.md 7c), one table of small items that come and go (keys
 * built in functions/live/model/live-keys.ts):
 * - `TICKET#<hash of the ticket>` / `TICKET`: a one-time ticket, 60 seconds, consumed by `$connect`;
 * - `LIVE#<bucket>` / `C#<connection id>`: a connection and its subscriptions, the watcher
 *   registry the notifier reads, spread over a few partitions so that a full read is parallel;
 * - `USER#<id>` / `CONNECTIONS`: the open connections of one user (the per-user limit, revocation);
 * - `JOURNAL` / `<time>#…`: each change of the registry, so that the notifier refreshes its copy
 *   by reading what changed, not the whole registry.
 * Every item carries its expiry: TTL removes tickets, stale connections and old journal items
 * without a sweep of the table.
 */
export const liveConnectionsTable: TableDefinition = {
  ...TABLE_NAMES.liveConnections,
  partitionKey: { name: 'pk', type: 'S' },
  sortKey: { name: 'sk', type: 'S' },
  indexes: [],
  timeToLiveAttribute: LIVE_CONNECTION_ATTRIBUTES.expiresAt,
};
