import type { StatusChange } from '../functions/media-log/feed/feed-messages';
import { statusUpdate } from '../functions/media-log/feed/status-writer';
import type { StatusField } from '../functions/media-log/model/entry-fields';
import { countedEntryOfItem, entryItem } from '../functions/media-log/model/entry-item';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { mediaLogTable } from '../functions/shared/tables/media-log-table';
import { recordPayloadBytes } from './key-heat-stream';
import { TableWriter, type MutableItem, type WriteTally } from './key-heat-writes';

/**
 * The media log table as the feed writes it, for the `key-heat` bench: a new request is the put of
 * the product's entry item (`entryItem`), a status change the product's update of it
 * (`statusUpdate`: its SET and its REMOVE, which takes the entry out of a sparse status index).
 * Every write goes through the table's write rules (key-heat-writes.ts) and hands its stream
 * record (the entry before and after, and its payload size) to the stream.
 */

/** Where the table's stream records go: the stream's shards (key-heat-stream.ts), or a list. */
export interface EntryRecordSink {
  record(partitionKey: string, ms: number, bytes: number, before: MediaLogEntry | undefined, after: MediaLogEntry): void;
}

/** A stored entry: its item, and the entry it holds (the next record's old image). */
interface StoredEntry {
  readonly item: MutableItem;
  entry: MediaLogEntry;
}

/** The entries in flight and the table writes of their requests and status changes. */
export class EntryWrites {
  private readonly table: TableWriter;
  private readonly stored = new Map<string, StoredEntry>();

  public constructor(
    tally: WriteTally,
    private readonly stream: EntryRecordSink,
  ) {
    this.table = new TableWriter(tally, mediaLogTable);
  }

  /** A new request, stored at `ms`, of a user in family `familyId` (by default its own: a top user's). */
  public request(entry: MediaLogEntry, ms: number, familyId: number = entry['user-id']): void {
    const item = entryItem(entry, undefined, familyId);
    this.table.put(item);
    // As the fold reads it from the stream: with its family, which a sub user's entry is counted in too.
    const counted = countedEntryOfItem(item);
    this.stored.set(entry.id, { item, entry: counted });
    this.stream.record(String(item.pk), ms, recordPayloadBytes(undefined, this.table.sizeOf(item)), undefined, counted);
  }

  /** A status change of a stored entry, applied at `ms`. */
  public change(change: StatusChange, ms: number): void {
    const stored = this.stored.get(change.id);
    if (stored === undefined) throw new Error(`Entry ${change.id} changes before it is stored.`);
    const oldImage = this.table.sizeOf(stored.item);
    const { set, remove } = statusUpdate(change);
    this.table.update(stored.item, set, remove);
    const before = stored.entry;
    const after = countedEntryOfItem(stored.item);
    stored.entry = after;
    this.stream.record(String(stored.item.pk), ms, recordPayloadBytes(oldImage, this.table.sizeOf(stored.item)), before, after);
  }

  /**
   * Store an entry as `changes` (each field's in the order they happened) left it, without a write:
   * an entry in flight when a simulated stretch begins. Its item is the product's entry item of its
   * statuses and when each was set; its one stream record, at `ms`, is that item new, which moves
   * its counters as its request and changes so far would have together (its total, and the
   * combination it holds).
   */
  public restore(sent: MediaLogEntry, changes: readonly StatusChange[], ms: number): void {
    let entry = sent;
    const stamps: Record<StatusField, string> = { status: sent.send, 'status-ffscan': sent.send, 'status-mediainfo': sent.send, 'status-scan-report': sent.send };
    for (const change of changes) {
      entry = { ...entry, [change.field]: change.value };
      stamps[change.field] = change.at;
    }
    const item = entryItem(entry, stamps);
    const counted = countedEntryOfItem(item);
    this.stored.set(entry.id, { item, entry: counted });
    this.stream.record(String(item.pk), ms, recordPayloadBytes(undefined, this.table.sizeOf(item)), undefined, counted);
  }

  /** The stored item of an entry in flight. */
  public itemOf(id: string): MutableItem | undefined {
    return this.stored.get(id)?.item;
  }

  /** The entry has no more changes to come: its state may go. */
  public finish(id: string): void {
    this.stored.delete(id);
  }

  /** Forget every entry in flight (the end of a simulated stretch). */
  public clear(): void {
    this.stored.clear();
  }
}
