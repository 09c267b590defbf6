import { counterKeyId } from '../functions/media-log/model/counters';
import type { TableDefinition } from '../functions/shared/tables/table-definition';

/**
 * What a write costs in DynamoDB, and where it lands, for the `key-heat` bench: item sizes, write
 * units, the writes an item change makes in each global secondary index, and a tally of writes and
 * units per table and index and of writes per partition key and per item in one-second buckets
 * (peak over the counted seconds), so that millions of writes are counted without storing one.
 */

/** An item as the simulation holds it: attribute name to value. */
export type Item = Readonly<Record<string, string | number>>;

/** A stored item, which an update changes in place. */
export type MutableItem = Record<string, string | number>;

/**
 * Bytes of a whole number as DynamoDB counts them: one per pair of digits, the pairs aligned on the
 * decimal point and trailing `00` pairs left out, plus one, and one more when negative (about one
 * per two significant digits, plus one:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 * Checked against DynamoDB Local's consumed capacity: 0 takes 1 byte, 120 takes 3, 3000 takes 2, -5 takes 3.
 */
export function numberSize(value: number): number {
  if (value === 0) return 1;
  let digits = String(Math.abs(Math.trunc(value)));
  if (digits.length % 2 === 1) digits = `0${digits}`;
  while (digits.endsWith('00')) digits = digits.slice(0, -2);
  return digits.length / 2 + 1 + (value < 0 ? 1 : 0);
}

/** Bytes of one attribute: its name and its value (strings UTF-8); an absent one weighs nothing. */
export function attributeSize(name: string, value: string | number | undefined): number {
  if (value === undefined) return 0;
  return Buffer.byteLength(name) + (typeof value === 'number' ? numberSize(value) : Buffer.byteLength(value));
}

/** Write units of a write of `bytes`: one per KB, rounded up, at least one. */
export function writeUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / 1024));
}

/** Writes and write units of one table or index. */
export interface WriteTotal {
  writes: number;
  units: number;
}

/**
 * Where writes landed hottest: a table (or `table index`), a key, its most writes in one second, and
 * its most write units in one second (item sizes included: an item written as often as another but
 * ten times its size costs ten times its units; DESIGN.md 7b round five).
 */
export interface Heat {
  readonly target: string;
  readonly key: string;
  readonly peak: number;
  readonly peakUnits: number;
}

/** Keys kept per target when its peaks are pruned: a key below a target's tenth peak is never needed again. */
const KEPT_PER_TARGET = 10;
const PRUNE_ABOVE = 50_000;

/** The keys of `peaks` whose peak is at least the `count`-th highest (ties kept). */
function hottestKeys(peaks: ReadonlyMap<string, number>, count: number): Set<string> {
  const floor = [...peaks.values()].sort((a, b) => b - a)[Math.min(count, peaks.size) - 1] ?? 0;
  return new Set([...peaks].filter(([, peak]) => peak >= floor).map(([key]) => key));
}

/** `peaks` with only the keys in `kept`. */
function keeping(peaks: ReadonlyMap<string, number>, kept: ReadonlySet<string>): Map<string, number> {
  return new Map([...peaks].filter(([key]) => kept.has(key)));
}

/** Writes and write units per key of one table or index: in the current second, and the peak of each key over the seconds closed. */
export class TargetHeat {
  private writes = new Map<string, number>();
  private units = new Map<string, number>();
  private peakWrites = new Map<string, number>();
  private peakUnits = new Map<string, number>();
  /** Write units of every key in the current second, and the most of any second closed. */
  private secondUnits = 0;
  private peakSecondUnits = 0;

  public constructor(public readonly target: string) {}

  /** One more write of `key` in the current second, of `units` write units. */
  public add(key: string, units = 1): void {
    this.writes.set(key, (this.writes.get(key) ?? 0) + 1);
    this.units.set(key, (this.units.get(key) ?? 0) + units);
    this.secondUnits += units;
  }

  /** The most write units the whole table or index took in one second. */
  public totalPeakUnits(): number {
    return this.peakSecondUnits;
  }

  /** Close the current second: each key's counts become its peaks where they are higher. */
  public endSecond(): void {
    this.peakSecondUnits = Math.max(this.peakSecondUnits, this.secondUnits);
    this.secondUnits = 0;
    for (const [key, writes] of this.writes) if (writes > (this.peakWrites.get(key) ?? 0)) this.peakWrites.set(key, writes);
    for (const [key, units] of this.units) if (units > (this.peakUnits.get(key) ?? 0)) this.peakUnits.set(key, units);
    if (this.peakWrites.size > PRUNE_ABOVE) {
      // The hottest by writes and the hottest by units: either list may be asked for.
      const kept = new Set([...hottestKeys(this.peakWrites, KEPT_PER_TARGET), ...hottestKeys(this.peakUnits, KEPT_PER_TARGET)]);
      this.peakWrites = keeping(this.peakWrites, kept);
      this.peakUnits = keeping(this.peakUnits, kept);
    }
    this.writes = new Map();
    this.units = new Map();
  }

  /** The `count` hottest keys by writes (more on a tie); an item's key shows as `pk sk`. */
  public hottest(count: number): Heat[] {
    return this.heats(hottestKeys(this.peakWrites, count)).sort((a, b) => b.peak - a.peak);
  }

  /** The `count` hottest keys by write units (more on a tie). */
  public hottestByUnits(count: number): Heat[] {
    return this.heats(hottestKeys(this.peakUnits, count)).sort((a, b) => b.peakUnits - a.peakUnits);
  }

  private heats(keys: ReadonlySet<string>): Heat[] {
    return [...keys].map((key) => ({ target: this.target, key: key.replace('\u0000', ' '), peak: this.peakWrites.get(key) ?? 0, peakUnits: this.peakUnits.get(key) ?? 0 }));
  }
}

/** The heat of every table and index a design writes, by target name. */
export class PeakCounter {
  private readonly targets = new Map<string, TargetHeat>();

  /** The heat of one target (created on first use); writers keep it rather than look it up per write. */
  public target(name: string): TargetHeat {
    let heat = this.targets.get(name);
    if (heat === undefined) this.targets.set(name, (heat = new TargetHeat(name)));
    return heat;
  }

  /** Close the current second of every target. */
  public endSecond(): void {
    for (const heat of this.targets.values()) heat.endSecond();
  }

  /** The `count` hottest keys of all targets together, by writes. */
  public hottest(count: number): Heat[] {
    return [...this.targets.values()].flatMap((heat) => heat.hottest(count)).sort((a, b) => b.peak - a.peak).slice(0, count);
  }

  /** The `count` hottest keys of all targets together, by write units. */
  public hottestByUnits(count: number): Heat[] {
    return [...this.targets.values()].flatMap((heat) => heat.hottestByUnits(count)).sort((a, b) => b.peakUnits - a.peakUnits).slice(0, count);
  }

  /** The hottest key of each target. */
  public hottestPerTarget(): Heat[] {
    return [...this.targets.values()].flatMap((heat) => heat.hottest(1).slice(0, 1));
  }
}

/**
 * Every counted write: writes and units per table and index (by target name, in the order first
 * written), and per-second writes per partition key and per item. While {@link counting} is off
 * writes change items but are not counted: the warm-up before a counted window, and the state a
 * skipped stretch of the day leaves in an item.
 */
export class WriteTally {
  public readonly totals = new Map<string, WriteTotal>();
  public readonly partitions = new PeakCounter();
  public readonly items = new PeakCounter();
  public counting = true;

  /** The partition and item heat of one table, for a writer to keep. */
  public tableHeat(target: string): { readonly partitions: TargetHeat; readonly items: TargetHeat } {
    return { partitions: this.partitions.target(target), items: this.items.target(target) };
  }

  /** The running total of one target (created on first use), for a writer to keep. */
  public total(target: string): WriteTotal {
    let total = this.totals.get(target);
    if (total === undefined) this.totals.set(target, (total = { writes: 0, units: 0 }));
    return total;
  }

  /** Run `work` with counting off: what it writes changes items and counts nowhere. */
  public uncounted<T>(work: () => T): T {
    const was = this.counting;
    this.counting = false;
    try {
      return work();
    } finally {
      this.counting = was;
    }
  }

  /** Close the current one-second bucket. */
  public endSecond(): void {
    this.partitions.endSecond();
    this.items.endSecond();
  }
}

/** A global secondary index as a write sees it: its keys, and the attributes its items hold (null: all). */
interface IndexShape {
  readonly heat: TargetHeat;
  readonly total: WriteTotal;
  readonly partitionKey: string;
  readonly sortKey: string | undefined;
  readonly attributes: ReadonlySet<string> | null;
}

/** The size of a stored item: its bytes as DynamoDB counts them, and how many attributes it has. */
export interface ItemSize {
  readonly bytes: number;
  readonly attributes: number;
}

/** An item's size, its key (`pk` and `sk` as one text), and its bytes in each index (what the index holds of it). */
interface ItemSizes extends ItemSize {
  readonly key: string;
  readonly indexes: readonly number[];
}

/**
 * The writes of one table and its global secondary indexes, read from the table's one definition,
 * by the write rules of global secondary indexes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes):
 * an item enters every index whose keys it has (an index without them holds nothing of it); an
 * update writes an index only when an attribute its items hold changes; a changed index key is a
 * delete of the old index item and a put of the new one (two writes, each on its own partition
 * key), and an item that loses an index key (a removed attribute) leaves the index by a delete;
 * otherwise one write. A table write costs the larger of the old and new item, an index write the
 * size of what the index holds (table keys, its keys, its projection), one unit per KB each: what
 * DynamoDB Local reports as consumed capacity, index by index, for the same writes.
 */
export class TableWriter {
  private readonly heat: { readonly partitions: TargetHeat; readonly items: TargetHeat };
  private readonly total: WriteTotal;
  private readonly indexes: readonly IndexShape[];
  private readonly sizes = new WeakMap<Item, ItemSizes>();

  public constructor(
    private readonly tally: WriteTally,
    private readonly table: TableDefinition,
  ) {
    this.heat = tally.tableHeat(table.id);
    this.total = tally.total(table.id);
    const tableKeys = [table.partitionKey.name, ...(table.sortKey ? [table.sortKey.name] : [])];
    this.indexes = table.indexes.map((index) => {
      const keys = [...tableKeys, index.partitionKey.name, ...(index.sortKey ? [index.sortKey.name] : [])];
      const { projection } = index;
      const attributes = projection.type === 'ALL' ? null : new Set([...keys, ...(projection.type === 'INCLUDE' ? projection.attributes : [])]);
      const target = `${table.id} ${index.indexName}`;
      return { heat: tally.partitions.target(target), total: tally.total(target), partitionKey: index.partitionKey.name, sortKey: index.sortKey?.name, attributes };
    });
  }

  /** The size of a stored item (worked out on its first write, kept up to date by every update). */
  public sizeOf(item: Item): ItemSize {
    return this.sizesOf(item);
  }

  /** A put of an item not stored yet. */
  public put(item: Item): void {
    const sizes = this.sizesOf(item);
    this.tableWrite(item, sizes.key, sizes.bytes);
    this.indexes.forEach((index, position) => {
      if (inIndex(index, item)) this.indexWrite(index, item[index.partitionKey], sizes.indexes[position] as number);
    });
  }

  /**
   * An update of the stored `item`: SET of the attributes of `set`, REMOVE of those of `remove`
   * (an update of an item not stored yet creates it, as UpdateItem does). The item is changed in
   * place (a copy per change would cost more than the rest of the simulation).
   */
  public update(item: MutableItem, set: Item, remove: readonly string[] = []): void {
    const old = this.sizesOf(item);
    const changed: string[] = [];
    const before: (string | number | undefined)[] = [];
    for (const name in set) {
      if (item[name] === set[name]) continue;
      changed.push(name);
      before.push(item[name]);
    }
    for (const name of remove) {
      if (item[name] === undefined || name in set) continue;
      changed.push(name);
      before.push(item[name]);
    }
    const was = this.indexes.map((index) => inIndex(index, item));
    const oldPartitions = this.indexes.map((index) => item[index.partitionKey]);
    Object.assign(item, set);
    for (const name of remove) if (!(name in set)) delete item[name];
    let [bytes, attributes] = [old.bytes, old.attributes];
    const indexBytes = [...old.indexes];
    const projectedChange = this.indexes.map(() => false);
    const keyChanged = this.indexes.map(() => false);
    changed.forEach((name, position) => {
      const delta = attributeSize(name, item[name]) - attributeSize(name, before[position]);
      bytes += delta;
      attributes += Number(item[name] !== undefined) - Number(before[position] !== undefined);
      this.indexes.forEach((index, at) => {
        if (index.attributes !== null && !index.attributes.has(name)) return;
        indexBytes[at] = (indexBytes[at] as number) + delta;
        projectedChange[at] = true;
        if (name === index.partitionKey || name === index.sortKey) keyChanged[at] = true;
      });
    });
    const sizes: ItemSizes = { key: old.key, bytes, attributes, indexes: indexBytes };
    this.sizes.set(item, sizes);
    this.tableWrite(item, sizes.key, Math.max(old.bytes, bytes));
    this.indexes.forEach((index, position) => {
      if (!projectedChange[position]) return;
      const is = inIndex(index, item);
      const [oldBytes, newBytes] = [old.indexes[position] as number, indexBytes[position] as number];
      if (was[position] && (!is || keyChanged[position])) this.indexWrite(index, oldPartitions[position], oldBytes);
      if (is && (!was[position] || keyChanged[position])) this.indexWrite(index, item[index.partitionKey], newBytes);
      if (was[position] && is && !keyChanged[position]) this.indexWrite(index, item[index.partitionKey], Math.max(oldBytes, newBytes));
    });
  }

  /**
   * A write of an item whose size is known without its attributes (a put, or the delete of an item
   * that size: DynamoDB bills a delete by the size of the item it removes), `factor` times its units:
   * 2 in a transaction, whose writes take two write units per KB
   * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html).
   */
  public writeSized(partitionKey: string, key: string, bytes: number, factor = 1): void {
    this.tableWrite({ [this.table.partitionKey.name]: partitionKey }, key, bytes, factor);
  }

  private tableWrite(item: Item, key: string, bytes: number, factor = 1): void {
    if (!this.tally.counting) return;
    const units = writeUnits(bytes) * factor;
    this.heat.partitions.add(String(item[this.table.partitionKey.name]), units);
    this.heat.items.add(key, units);
    this.total.writes += 1;
    this.total.units += units;
  }

  private indexWrite(index: IndexShape, partition: string | number | undefined, bytes: number): void {
    if (!this.tally.counting) return;
    const units = writeUnits(bytes);
    index.heat.add(String(partition), units);
    index.total.writes += 1;
    index.total.units += units;
  }

  /** The sizes of `item` and its key as the tally counts it, worked out on its first write and kept up to date by {@link update}. */
  private sizesOf(item: Item): ItemSizes {
    let sizes = this.sizes.get(item);
    if (sizes !== undefined) return sizes;
    let [bytes, attributes] = [0, 0];
    const indexes = this.indexes.map(() => 0);
    for (const name in item) {
      const size = attributeSize(name, item[name]);
      if (size === 0) continue;
      bytes += size;
      attributes += 1;
      this.indexes.forEach((index, position) => {
        if (index.attributes === null || index.attributes.has(name)) indexes[position] = (indexes[position] as number) + size;
      });
    }
    const pk = String(item[this.table.partitionKey.name]);
    // An item's key as one text (pk and sk joined as counter keys are), built once per item.
    const key = this.table.sortKey ? counterKeyId({ pk, sk: item[this.table.sortKey.name] }) : pk;
    sizes = { key, bytes, attributes, indexes };
    this.sizes.set(item, sizes);
    return sizes;
  }
}

/** Whether an item has an index's keys, so the index holds an item for it. */
function inIndex(index: IndexShape, item: Item): boolean {
  return item[index.partitionKey] !== undefined && (index.sortKey === undefined || item[index.sortKey] !== undefined);
}
