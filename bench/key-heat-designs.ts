/**
 * The two ways of writing the media log that the `key-heat` bench compares, driven through the real
 * key builders, entry items and counter code: the design of DESIGN.md 7b (one item per change,
 * counters folded from the stream) and the first design (one transaction of the entry and its
 * counters per change). Each counts its writes in a {@link WriteTally}.
 *
 * Approximations: the stream has one shard per table partition (about 1,000 writes/s each); a
 * shard's batch closes when full or when its 1 s window ends, taken at second boundaries; a counter
 * item's size is what this run wrote into it (its counts and the watermarks of this run's shards),
 * so items that also hold the watermarks of shards closed in the last 25 hours cost more than shown.
 */
import { counterKeyId, counterLevelsOf, entryCounterKeys, parentBucketOf } from '../functions/media-log/model/counters';
import { entryFromItem, entryItem } from '../functions/media-log/model/entry-item';
import { watermarkAttribute } from '../functions/media-log/fold/count-fold';
import type { StatusChange } from '../functions/media-log/feed/feed-messages';
import { counterChanges, paddedSequence, summed, type EntryChange } from '../functions/media-log/fold/stream-changes';
import { mediaLogKeys, STATUS_STORAGE, urlHash } from '../functions/media-log/model/keys';
import { STATUS_FIELDS } from '../functions/media-log/model/entry-fields';
import type { MediaLogEntry } from '../functions/media-log/model/schemas';
import { foldMediaLogCountsFunction } from '../functions/media-log/fold/stream-functions';
import { bucketOf } from '../functions/media-log/model/time-buckets';
import { MEDIA_LOG_ATTRIBUTES, mediaLogCountsTable, mediaLogTable } from '../functions/shared/tables/media-log-table';
import type { TableDefinition } from '../functions/shared/tables/table-definition';
import { attributeSize, numberSize, TableWriter, writeUnits, WriteTally, type Item, type MutableItem } from './key-heat-writes';

/** Writes per second one table partition (and so one stream shard) takes. */
const WRITES_PER_PARTITION = 1000;
/** Whole-log counter items of the previous design were spread over this many shards by entry id. */
const PREVIOUS_COUNTER_SHARDS = 4;

/** FNV-1a: a cheap stable hash, standing in for DynamoDB's hash of a partition key. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/** What a status change sets on its entry item: the update of the status writer (the field, when, and its status index partition). */
export function statusSet(change: StatusChange, partitionValue: string): Item {
  const storage = STATUS_STORAGE[change.field];
  return { [storage.attribute]: change.value, [storage.changedAt]: change.at, [MEDIA_LOG_ATTRIBUTES.partition[storage.partition]]: partitionValue };
}

/** A watermark's value as the fold writes it: the padded sequence number, `@`, and the time in seconds. */
const WATERMARK_VALUE = `${paddedSequence('0')}@${'0'.repeat(10)}`;

/** A counter item as the fold has written it in this run: its size, its counts and its shards' watermarks. */
interface CounterItem {
  bytes: number;
  readonly counts: Map<string, number>;
  readonly watermarks: Set<string>;
  lastSecond: number;
}

/**
 * The fold as the event source mapping runs it: stream records go to the shard of their item's
 * partition, each shard's records are delivered in batches of at most `batchSize`, and a batch
 * writes each counter item it moves once, with the sum of its deltas and the shard's watermark
 * (count-fold.ts); deltas that cancel out within the batch write nothing.
 */
export class CounterFold {
  private readonly buffers: EntryChange[][];
  /** Records of each shard's open batch that arrived before the current second. */
  private readonly open: number[];
  private readonly counters = new Map<string, CounterItem>();
  private readonly heat: ReturnType<WriteTally['tableHeat']>;
  private sequence = 0;
  /** Batches delivered so far. */
  public batches = 0;

  public constructor(
    private readonly tally: WriteTally,
    public readonly shards: number,
    private readonly batchSize: number = foldMediaLogCountsFunction.batchSize,
  ) {
    this.buffers = Array.from({ length: shards }, () => []);
    this.open = this.buffers.map(() => 0);
    this.heat = tally.tableHeat(mediaLogCountsTable.id);
  }

  /** A stream record of the item of partition `partitionKey`: the entry before (absent for a new one) and after. */
  public record(partitionKey: string, before: MediaLogEntry | undefined, after: MediaLogEntry): void {
    const shard = hashOf(partitionKey) % this.shards;
    this.sequence += 1;
    (this.buffers[shard] as EntryChange[]).push({ sequence: paddedSequence(String(this.sequence)), ...(before ? { before } : {}), after });
  }

  /**
   * Deliver the batches that close in the second ending. A shard's open batch closes when it holds
   * `batchSize` records or when its window (1 s) ends, whichever comes first, as Lambda's event
   * source mapping does; the records of a second that fill no batch open the next one, whose
   * window ends in the following second.
   */
  public endSecond(second: number): void {
    this.buffers.forEach((records, shard) => {
      const open = this.open[shard] as number;
      let start = 0;
      // The batch opened last second did not fill before its window ended: it goes as it is.
      if (open > 0 && records.length < this.batchSize) start = this.deliver(shard, records, 0, open, second);
      while (records.length - start >= this.batchSize) start = this.deliver(shard, records, start, this.batchSize, second);
      this.buffers[shard] = records.slice(start);
      this.open[shard] = records.length - start;
    });
    // A counter item unwritten for two minutes is forgotten, so memory stays flat over the hour; urls are requested within a minute.
    if (second % 60 === 0) for (const [id, counter] of this.counters) if (counter.lastSecond < second - 120) this.counters.delete(id);
  }

  /** Fold `count` records of a shard from `start` as one batch; returns where the next batch starts. */
  private deliver(shard: number, records: readonly EntryChange[], start: number, count: number, second: number): number {
    this.foldBatch(`shard-${shard}`, records.slice(start, start + count), second);
    this.batches += 1;
    return start + count;
  }

  private foldBatch(shardId: string, records: readonly EntryChange[], second: number): void {
    const watermark = watermarkAttribute(shardId);
    const { partitionKey, sortKey } = mediaLogCountsTable;
    for (const [id, changes] of counterChanges(records)) {
      const sums = summed(changes.parts);
      if (sums.size === 0) continue;
      const { pk, sk } = changes.key;
      const counter = this.counters.get(id) ?? { bytes: attributeSize(partitionKey.name, pk) + attributeSize(sortKey?.name ?? '', sk), counts: new Map(), watermarks: new Set(), lastSecond: second };
      const before = counter.bytes;
      for (const [name, delta] of sums) {
        const old = counter.counts.get(name);
        counter.bytes += old === undefined ? attributeSize(name, delta) : numberSize(old + delta) - numberSize(old);
        counter.counts.set(name, (old ?? 0) + delta);
      }
      if (!counter.watermarks.has(watermark)) counter.bytes += attributeSize(watermark, WATERMARK_VALUE);
      counter.watermarks.add(watermark);
      counter.lastSecond = second;
      this.counters.set(id, counter);
      this.heat.partitions.add(pk);
      this.heat.items.add(id);
      this.tally.totals.counterWrites += 1;
      this.tally.totals.counterUnits += writeUnits(Math.max(before, counter.bytes));
    }
  }
}

/**
 * One way of writing the log: what a new request and a status change write. A change not
 * `counted` (before the measured window) only brings the stored entry up to date.
 */
export interface Design {
  readonly tally: WriteTally;
  request(entry: MediaLogEntry, counted: boolean): void;
  change(change: StatusChange, counted: boolean): void;
  /** The entry has no more changes to come: its state may go. */
  finish(id: string): void;
  /** Close the simulated second `second`: the fold delivers its batches, the tally its buckets. */
  endSecond(second: number): void;
}

/** A stored entry item, and the entry it held at its last counted write (what the stream's old image will show). */
interface StoredEntry {
  readonly item: MutableItem;
  entry: MediaLogEntry | undefined;
}

/** The design of DESIGN.md 7b: a put per request, an update per status change, counters folded from the stream. */
export class StreamFoldDesign implements Design {
  public readonly tally = new WriteTally();
  public readonly fold: CounterFold;
  private readonly table = new TableWriter(this.tally, mediaLogTable);
  private readonly stored = new Map<string, StoredEntry>();

  public constructor(shards: number, batchSize?: number) {
    this.fold = new CounterFold(this.tally, shards, batchSize);
  }

  public request(entry: MediaLogEntry, counted: boolean): void {
    const item = entryItem(entry);
    this.stored.set(entry.id, { item, entry: counted ? entry : undefined });
    if (!counted) return;
    this.table.put(item);
    this.fold.record(String(item[mediaLogTable.partitionKey.name]), undefined, entry);
  }

  public change(change: StatusChange, counted: boolean): void {
    const stored = this.stored.get(change.id) as StoredEntry;
    const set = statusSet(change, mediaLogKeys.status(change.value));
    if (!counted) {
      Object.assign(stored.item, set);
      return;
    }
    const before = stored.entry ?? entryFromItem(stored.item);
    this.table.update(stored.item, set);
    stored.entry = entryFromItem(stored.item);
    this.fold.record(String(stored.item[mediaLogTable.partitionKey.name]), before, stored.entry);
  }

  public finish(id: string): void {
    this.stored.delete(id);
  }

  public endSecond(second: number): void {
    this.fold.endSecond(second);
    this.tally.endSecond();
  }
}

/** The first design's url-for-a-user index: a partition per url, user and month, as its url partitions were monthly. */
const FIRST_DESIGN_URL_USER = 'urlUserPartition';

/** The media log table of the first design: today's indexes and its url-for-a-user index. */
const firstDesignTable: TableDefinition = {
  ...mediaLogTable,
  indexes: [
    ...mediaLogTable.indexes,
    { ...(mediaLogTable.indexes.find((index) => index.partitionKey.name === MEDIA_LOG_ATTRIBUTES.partition.url) as TableDefinition['indexes'][number]), indexName: 'url-user-by-send', partitionKey: { name: FIRST_DESIGN_URL_USER, type: 'S' } },
  ],
};

/**
 * The counter items of an entry in the first design: today's (the whole log, its user) and those
 * of its url and of its url for its user, month and day, in the first design's key format.
 */
function firstDesignCounterKeys(entry: MediaLogEntry): { pk: string; sk: string }[] {
  const hash = urlHash(entry.url);
  const month = bucketOf('month', entry.send);
  const urlScopes = [`URL#${hash}`, `URL#${hash}#USER#${entry['user-id']}`];
  return [
    ...entryCounterKeys(entry),
    ...urlScopes.flatMap((scope) => [
      { pk: `COUNT#${scope}#month`, sk: month },
      { pk: `COUNT#${scope}#day#${month}`, sk: bucketOf('day', entry.send) },
    ]),
  ];
}

/** An entry of the first design: its item, and the counter items each of its transactions writes (partition key, item key). */
interface TransactionEntry {
  readonly item: MutableItem;
  readonly counters: readonly { readonly pk: string; readonly id: string }[];
}

/**
 * The first design (DESIGN.md 7b, "measured on the first design"): every request and every status
 * change one TransactWriteItems of the entry and its 10 counter items (2 units per item, each
 * counter item taken as under 1 KB), the 4 whole-log counters spread over 4 shards by entry id
 * (a shard suffix on their partition key), and status partitions monthly (`STATUS#<value>#<month>`).
 */
export class TransactionDesign implements Design {
  public readonly tally = new WriteTally();
  private readonly table = new TableWriter(this.tally, firstDesignTable, 2);
  private readonly heat = this.tally.tableHeat(mediaLogTable.id);
  private readonly entries = new Map<string, TransactionEntry>();

  public request(entry: MediaLogEntry, counted: boolean): void {
    const shard = hashOf(entry.id) % PREVIOUS_COUNTER_SHARDS;
    const wholeLog = new Set(counterLevelsOf(mediaLogKeys.scope.all).map((level) => mediaLogKeys.counterPartition(mediaLogKeys.scope.all, level, parentBucketOf(mediaLogKeys.scope.all, level, entry.send))));
    const counters = firstDesignCounterKeys(entry)
      .map((key) => (wholeLog.has(key.pk) ? { pk: `${key.pk}#${shard}`, sk: key.sk } : key))
      .map((key) => ({ pk: key.pk, id: counterKeyId(key) }));
    const item: MutableItem = entryItem(entry);
    for (const field of STATUS_FIELDS) item[MEDIA_LOG_ATTRIBUTES.partition[STATUS_STORAGE[field].partition]] = monthlyStatus(entry.send, entry[field]);
    const month = bucketOf('month', entry.send);
    item[MEDIA_LOG_ATTRIBUTES.partition.url] = `URL#${urlHash(entry.url)}#${month}`;
    item[FIRST_DESIGN_URL_USER] = `URLUSER#${urlHash(entry.url)}#${entry['user-id']}#${month}`;
    this.entries.set(entry.id, { item, counters });
    if (!counted) return;
    this.table.put(item);
    this.counterWrites(counters);
  }

  public change(change: StatusChange, counted: boolean): void {
    const stored = this.entries.get(change.id) as TransactionEntry;
    const set = statusSet(change, monthlyStatus(String(stored.item.send), change.value));
    if (!counted) {
      Object.assign(stored.item, set);
      return;
    }
    this.table.update(stored.item, set);
    this.counterWrites(stored.counters);
  }

  public finish(id: string): void {
    this.entries.delete(id);
  }

  public endSecond(): void {
    this.tally.endSecond();
  }

  private counterWrites(counters: TransactionEntry['counters']): void {
    for (const key of counters) {
      this.heat.partitions.add(key.pk);
      this.heat.items.add(key.id);
    }
    this.tally.totals.counterWrites += counters.length;
    this.tally.totals.counterUnits += 2 * counters.length;
  }
}

/** A status partition of the first design: the value's partition, per month of the entry's send. */
function monthlyStatus(send: string, value: StatusChange['value']): string {
  return `${mediaLogKeys.status(value)}#${bucketOf('month', send)}`;
}

/** Stream shards for a rate of table writes: one per table partition, a partition taking about 1,000 writes/s. */
export function streamShards(tableWritesPerSecond: number): number {
  return Math.max(1, Math.ceil(tableWritesPerSecond / WRITES_PER_PARTITION));
}
