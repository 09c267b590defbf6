import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { addEntryDelta, type CounterDelta } from '../../functions/media-log/fold/counter-deltas';
import { counterKeyId, isCountAttribute } from '../../functions/media-log/model/counters';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogCountsTable } from '../../functions/shared/tables/media-log-table';
import { scanCountedEntries } from '../media-log/feed/feed-fixture';

/**
 * Whether the media log's counters are exact: every counter item's counts beside the counts the
 * stored entries make, as the fold would have folded them. Equal maps: exact totals everywhere.
 */

const counts = () => tableName(mediaLogCountsTable);

/** Every counter item's counts (zeros left out), by counter key. */
export async function storedCounts(): Promise<Map<string, Record<string, number>>> {
  const stored = new Map<string, Record<string, number>>();
  let start: Record<string, unknown> | undefined;
  do {
    const page = await getDocumentClient().send(new ScanCommand({ TableName: counts(), ConsistentRead: true, ExclusiveStartKey: start }));
    for (const item of page.Items ?? []) {
      const values = Object.fromEntries(Object.entries(item).filter((pair): pair is [string, number] => isCountAttribute(pair[0], pair[1]) && pair[1] !== 0));
      if (Object.keys(values).length > 0) stored.set(counterKeyId(item as { pk: string; sk: string }), values);
    }
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return stored;
}

/** The counts the stored entries make, as the fold would have folded them, by counter key. */
export async function countsOfEntries(): Promise<Map<string, Record<string, number>>> {
  const deltas = new Map<string, CounterDelta>();
  for (const entry of await scanCountedEntries()) addEntryDelta(deltas, entry, 1);
  return new Map([...deltas].map(([id, { counts: values }]) => [id, Object.fromEntries([...values].filter(([, value]) => value !== 0))]));
}
