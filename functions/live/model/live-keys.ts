import { createHash } from 'node:crypto';

/**
 * Every key of the live connections table, built in this one place (the table's definition,
 * functions/shared/tables/live-connections-table.ts, describes the items).
 */

/**
 * Partitions the watcher registry is spread over: the notifier reads them all at once when it
 * loads the registry, and a partition serves 3,000 reads a second, so the registry stays readable
 * by every stream shard's notifier at once however many connections it holds.
 */
export const REGISTRY_BUCKETS = 8;

/** The partition of the registry's journal: every change of a subscription, in time order. */
export const JOURNAL_PARTITION = 'JOURNAL';

/** Digits of a journal time (epoch milliseconds), so that text order is time order. */
const TIME_DIGITS = 13;

/** The registry partition a connection lives in: a hash of its id, so connections spread evenly. */
export function registryBucketOf(connectionId: string): number {
  return createHash('sha256').update(connectionId).digest()[0] as number % REGISTRY_BUCKETS;
}

/** A journal item's sort key begins with its time: a reader asks for the items after a time. */
export function journalTime(atMs: number): string {
  return String(Math.max(0, Math.floor(atMs))).padStart(TIME_DIGITS, '0');
}

/** Keys of the items of the live connections table. */
export const liveKeys = {
  /** `TICKET#<hash>` / `TICKET`: a ticket, by the SHA-256 of its text (the text itself is never stored). */
  ticket: (hash: string) => ({ pk: `TICKET#${hash}`, sk: 'TICKET' }),
  /** `LIVE#<bucket>` / `C#<id>`: a connection, in its registry partition. */
  connection: (connectionId: string) => ({ pk: liveKeys.registryPartition(registryBucketOf(connectionId)), sk: `C#${connectionId}` }),
  /** The registry partition of a bucket. */
  registryPartition: (bucket: number) => `LIVE#${bucket}`,
  /** `USER#<id>` / `CONNECTIONS`: the open connections of one user. */
  userConnections: (userId: number) => ({ pk: `USER#${userId}`, sk: 'CONNECTIONS' }),
  /** `JOURNAL` / `<time>#<what>`: one change of the registry (`what`: a connection and its revision, or a notifier's shard). */
  journal: (atMs: number, what: string) => ({ pk: JOURNAL_PARTITION, sk: `${journalTime(atMs)}#${what}` }),
} as const;

/** Key prefixes of the table's items, for the grants (`dynamodb:LeadingKeys`). */
export const LIVE_PARTITIONS = {
  tickets: 'TICKET#*',
  registry: 'LIVE#*',
  users: 'USER#*',
  journal: JOURNAL_PARTITION,
} as const;
