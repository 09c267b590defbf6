import { connectionOf, type LiveConnection } from '../model/live-connection';

/**
 * The journal of the watcher registry, as its readers see it: each change of a connection (its new
 * state, or its removal) with the connection's revision, and the heartbeats of the notifiers.
 */
export type JournalEntry =
  | { readonly kind: 'connection'; readonly connectionId: string; readonly revision: number; readonly at: number; readonly connection?: LiveConnection }
  | { readonly kind: 'heartbeat'; readonly shardId: string; readonly at: number };

/** The entry a journal item holds, or undefined for an item of another kind. */
export function journalEntryOf(item: Readonly<Record<string, unknown>>): JournalEntry | undefined {
  const at = Number(String(item.sk).slice(0, String(item.sk).indexOf('#')));
  if (typeof item.shard === 'string') return { kind: 'heartbeat', shardId: item.shard, at };
  if (typeof item.connectionId !== 'string' || typeof item.revision !== 'number') return undefined;
  const connection = item.connection === undefined ? undefined : connectionOf(item.connection as Record<string, unknown>);
  return { kind: 'connection', connectionId: item.connectionId, revision: item.revision, at, ...(connection === undefined ? {} : { connection }) };
}
