import { MediaLogIndexReader } from '../../functions/media-log/listing/index-reader';
import { indexPartition } from '../../functions/media-log/listing/list-plan';
import { mediaLogKeys } from '../../functions/media-log/model/keys';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { rangeFrom } from '../../functions/shared/listing/key-range';
import { ReadBudget } from '../../functions/shared/listing/read-budget';
import { attachReadMeter } from '../../local/metering/read-meter';
import { mediaLogCountsTable, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { storeEntries } from '../harness/media-log';

/**
 * The listing engine's read budget, in read units: a page never spends more than its budget,
 * whatever the query. A check that drops almost everything (a rare status, known only from the
 * entries) ends the page early with fewer items and an edge further on; walking from edge to edge
 * still finds every match exactly once.
 */

let entries: MediaLogEntry[];

beforeAll(async () => {
  entries = sampleMediaLogEntries(1200, { userIds: [7, 8, 9], start: new Date('2026-03-01T00:00:00Z'), spanMs: 60 * 86_400_000, seed: 5 });
  await storeEntries(entries);
}, 240_000);

/** Read units one page may spend here: the five shards' first Queries and a few runs of entries. */
const PAGE_UNITS = 4;

describe('the read budget of a page', () => {
  it('ends a page early, never over budget, and a walk from edge to edge finds every match once', async () => {
    const expected = entries.filter((entry) => entry.status === 'processing').sort((a, b) => (`${a.send}#${a.id}` < `${b.send}#${b.id}` ? 1 : -1));
    expect(expected.length).toBeGreaterThan(3);
    const reader = new MediaLogIndexReader(getDocumentClient(), { entries: tableName(mediaLogTable), counts: tableName(mediaLogCountsTable) });
    const streams = mediaLogKeys.logShards().map((value) => ({ partition: indexPartition('log', value) }));
    const found: MediaLogEntry[] = [];
    let edge: string | undefined;
    let shortPages = 0;
    for (let page = 0; page < 500; page += 1) {
      const meter = attachReadMeter(getDocumentClient());
      const result = await reader.page(
        { streams, range: rangeFrom({}, edge, false), ascending: false, skip: 0, take: 5, check: (entry) => entry.status === 'processing', resolveSkipped: true },
        new ReadBudget(PAGE_UNITS),
      );
      meter.detach();
      expect(meter.tally().billedReadUnits).toBeLessThanOrEqual(PAGE_UNITS);
      found.push(...result.values);
      if (result.values.length < 5 && result.edge !== undefined) shortPages += 1;
      if (result.edge === undefined) break;
      if (edge !== undefined) expect(result.edge < edge).toBe(true);
      edge = result.edge;
    }
    expect(shortPages).toBeGreaterThan(0);
    expect(found.map((entry) => entry.id)).toEqual(expected.map((entry) => entry.id));
  }, 240_000);
});
