import { ConditionalCheckFailedException, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../../shared/async/map-concurrently';
import { parallelScan, scanShape, type ScanShape } from '../../shared/tables/parallel-scan';
import { counterKeyId, countsOfItem, VERSION_ATTRIBUTE } from '../model/counters';
import { countedEntryOfItem } from '../model/entry-item';
import { ENTRY_KEY_PREFIX } from '../model/keys';
import { Retention } from '../model/retention';
import { bucketStart } from '../model/time-buckets';
import { addEntryDelta, type CounterDelta } from './counter-deltas';

/**
 * Rebuilding the media log's counters from its entries (`media-log recount`): the repair for counts
 * the fold never applied (a batch Lambda gave up on after the mapping's maximum record age, a
 * record the fold could not read) and for a counter damaged by hand, and the check of the fold's
 * one unproven assumption (that Lambda retries a shard's records in order).
 *
 * It runs while the fold runs, and corrects a counter only where that is safe:
 * 1. read every counter item, with its version (every fold write adds one to it);
 * 2. scan every entry and add each to its counters, as the fold would have (counter-deltas.ts),
 *    keeping the sums only: memory follows the counters, not the entries;
 * 3. let the fold catch up with every change written before the scan ended (`settle`: locally the
 *    fold is drained, in AWS a wait longer than its lag);
 * 4. scan the entries again, summed the same way: a counter whose sums differ between the two
 *    scans had entries moving, and is left alone (two changes that cancel out in one fold batch
 *    move no counter, and one scan could have seen the state between them). Changes that leave a
 *    counter's sums as they were, but that the fold applied between the two reads of the counters,
 *    moved its version (step 5);
 * 5. read the counters again: an item whose version moved was written by the fold meanwhile, so
 *    the first scan and the item may disagree by changes in flight, and it is left alone;
 * 6. add the difference (entries' counts less the item's) to every other item, on condition that
 *    its version is still the one read: a fold write in between refuses the correction.
 * Items left alone are reported as busy: run the recount again when the fold writes them less
 * often (a past hour, day or month is quiet; the current ones are written by every batch while the
 * pipeline sends).
 */

/** A counter item the recount corrected, and by how much (attribute → added). */
export interface CounterCorrection {
  readonly pk: string;
  readonly sk: string;
  readonly added: Readonly<Record<string, number>>;
}

/** What a recount found and did. */
export interface RecountReport {
  /** Entries scanned (each of the two scans). */
  readonly entries: number;
  /** Counter items compared: those the entries make and those stored. */
  readonly counters: number;
  /** Items that held other counts than their entries make, and what was added to each. */
  readonly corrected: readonly CounterCorrection[];
  /** Items the fold wrote while the recount counted (or with entries that moved): not corrected, run again. */
  readonly busy: readonly { readonly pk: string; readonly sk: string }[];
}

/** A stored counter item: its counts and its version. */
interface StoredCounter {
  readonly key: { readonly pk: string; readonly sk: string };
  readonly counts: Readonly<Record<string, number>>;
  readonly version: number | undefined;
}

/**
 * Segments scanned at once: each holds one page (1 MB) at a time, so the recount's memory beyond
 * the counters is bounded by this, whatever the table's size.
 */
const SCAN_WORKERS = 8;
/** Corrections in flight at once. */
const CORRECTIONS_IN_FLIGHT = 8;

/**
 * How the recount scans a table of `tableBytes` (DescribeTable's `TableSizeBytes`): segments by
 * the table's size (functions/shared/tables/parallel-scan.ts), {@link SCAN_WORKERS} at once.
 */
export function recountScanShape(tableBytes: number | undefined): ScanShape {
  return scanShape(tableBytes, SCAN_WORKERS);
}

/** The sizes of the two tables a recount scans, in bytes (DescribeTable's `TableSizeBytes`): how finely it splits each scan. */
export interface RecountTableSizes {
  readonly entries?: number;
  readonly counts?: number;
}

/**
 * The two tables' sizes as DynamoDB keeps them (refreshed about every six hours in AWS), and the
 * entries' item count: how finely the recount splits each scan, and a progress bar's total.
 */
export async function describeRecountTables(client: DynamoDBDocumentClient, tables: { readonly entries: string; readonly counts: string }): Promise<RecountTableSizes & { readonly entryCount?: number }> {
  const [entries, counts] = await Promise.all([tables.entries, tables.counts].map(async (name) => (await client.send(new DescribeTableCommand({ TableName: name }))).Table));
  return { entries: entries?.TableSizeBytes, counts: counts?.TableSizeBytes, entryCount: entries?.ItemCount };
}

/** Rebuilds the counters of the media log from its entries; see the module comment for how it stays safe beside the fold. */
export class MediaLogRecount {
  public constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tables: { readonly entries: string; readonly counts: string },
    /**
     * How long the log is kept. A bucket that starts before the window is left alone: TTL removes
     * its entries one by one while its counter keeps them (the fold ignores TTL's removals), and no
     * listing reads it whole. A counter item the recount creates carries its bucket's expiry.
     */
    private readonly retention: Retention = Retention.forever,
    private readonly now: () => number = Date.now,
    private readonly sizes: RecountTableSizes = {},
  ) {}

  /**
   * Recount every counter; `settle` returns once the fold has applied every change written before
   * it was called. `onScanned` hears, page by page, how many entries each scan (1, then 2) has read.
   */
  public async run(settle: () => Promise<void>, onScanned?: (scan: 1 | 2, entries: number) => void): Promise<RecountReport> {
    const before = await this.storedCounters();
    const first = await this.countedEntries((entries) => onScanned?.(1, entries));
    await settle();
    const second = await this.countedEntries((entries) => onScanned?.(2, entries));
    const after = await this.storedCounters();

    const expected = first.counters;
    const ids = new Set([...expected.keys(), ...second.counters.keys(), ...before.keys(), ...after.keys()]);
    const busy: { pk: string; sk: string }[] = [];
    const differing: { stored: StoredCounter; added: Record<string, number> }[] = [];
    const floor = this.retention.floor(this.now());
    for (const id of ids) {
      const was = before.get(id);
      const stored = after.get(id);
      const want = expected.get(id);
      const key = (stored ?? was ?? want ?? second.counters.get(id))?.key as StoredCounter['key'];
      if (floor !== undefined && bucketStart(key.sk) < floor) continue;
      // Entries that moved between the two scans move their counters' sums (see the module comment).
      const moving = Object.keys(difference(Object.fromEntries(want?.counts ?? []), Object.fromEntries(second.counters.get(id)?.counts ?? []))).length > 0;
      if (moving || was?.version !== stored?.version) {
        busy.push({ ...key });
        continue;
      }
      const added = difference(Object.fromEntries(want?.counts ?? []), stored?.counts ?? {});
      if (Object.keys(added).length > 0) differing.push({ stored: stored ?? { key, counts: {}, version: undefined }, added });
    }
    const corrected: CounterCorrection[] = [];
    await mapConcurrently(differing, CORRECTIONS_IN_FLIGHT, async ({ stored, added }) => {
      if (await this.correct(stored, added)) corrected.push({ ...stored.key, added });
      else busy.push({ ...stored.key });
    });
    return { entries: first.entries, counters: ids.size, corrected, busy };
  }

  /** Add `added` to a counter item still at the version read; false when the fold wrote it meanwhile. */
  private async correct(stored: StoredCounter, added: Readonly<Record<string, number>>): Promise<boolean> {
    const names: Record<string, string> = { '#v': VERSION_ATTRIBUTE };
    const values: Record<string, unknown> = { ':one': 1 };
    const additions = Object.entries(added).map(([name, value], index) => {
      names[`#a${index}`] = name;
      values[`:a${index}`] = value;
      return `#a${index} :a${index}`;
    });
    if (stored.version !== undefined) values[':seen'] = stored.version;
    const expiry = this.retention.counterExpirySet(stored.key.sk);
    if (expiry) {
      Object.assign(names, expiry.names);
      Object.assign(values, expiry.values);
    }
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tables.counts,
          Key: { ...stored.key },
          UpdateExpression: `ADD ${[...additions, '#v :one'].join(', ')}${expiry ? ` SET ${expiry.clause}` : ''}`,
          ConditionExpression: stored.version === undefined ? 'attribute_not_exists(#v)' : '#v = :seen',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  /** Every counter item, by key, with its counts and version (strongly consistent). */
  private async storedCounters(): Promise<Map<string, StoredCounter>> {
    const counters = new Map<string, StoredCounter>();
    await this.scan(this.tables.counts, recountScanShape(this.sizes.counts), (item) => {
      const key = { pk: String(item.pk), sk: String(item.sk) };
      const counts = countsOfItem(item);
      const version = typeof item[VERSION_ATTRIBUTE] === 'number' ? (item[VERSION_ATTRIBUTE] as number) : undefined;
      counters.set(counterKeyId(key), { key, counts, version });
    });
    return counters;
  }

  /**
   * What the entries add to each counter, summed while the entries are scanned: the memory it takes
   * follows the counters, not the entries (strongly consistent).
   */
  private async countedEntries(onScanned: (entries: number) => void): Promise<{ readonly counters: Map<string, CounterDelta>; readonly entries: number }> {
    const counters = new Map<string, CounterDelta>();
    let entries = 0;
    await this.scan(
      this.tables.entries,
      recountScanShape(this.sizes.entries),
      (item) => {
        if (typeof item.pk !== 'string' || !item.pk.startsWith(ENTRY_KEY_PREFIX)) return;
        addEntryDelta(counters, countedEntryOfItem(item), 1);
        entries += 1;
      },
      () => onScanned(entries),
    );
    return { counters, entries };
  }

  /** A parallel, strongly consistent Scan of a whole table, each item handed to `each`, `onPage` called after each page. */
  private async scan(tableName: string, shape: ScanShape, each: (item: Record<string, unknown>) => void, onPage?: () => void): Promise<void> {
    await parallelScan(this.client, { TableName: tableName, ConsistentRead: true }, shape, (items) => {
      for (const item of items) each(item);
      onPage?.();
    });
  }
}

/** `want` less `stored`, attribute by attribute, without the zeros. */
function difference(want: Readonly<Record<string, number>>, stored: Readonly<Record<string, number>>): Record<string, number> {
  const added: Record<string, number> = {};
  for (const name of new Set([...Object.keys(want), ...Object.keys(stored)])) {
    const delta = (want[name] ?? 0) - (stored[name] ?? 0);
    if (delta !== 0) added[name] = delta;
  }
  return added;
}
