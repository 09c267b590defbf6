import { readMergedPage, type SortedStream } from '../../functions/shared/listing/merge-reader';
import { windowAfter } from '../../functions/shared/listing/key-window';
import { mediaLogKeys } from '../../functions/media-log/model/keys';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { bucketOf } from '../../functions/media-log/model/time-buckets';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { MEDIA_LOG_ATTRIBUTES, mediaLogIndexName, mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { storeEntries } from '../harness/media-log';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { attachReadMeter } from '../../functions/shared/observability/read-meter';

/**
 * The listing engine's read budget: a page never reads more than its budget, whatever the query.
 * A check that drops almost everything (a rare status, known only from the entries) ends the page
 * early with fewer items and a resume point further on; walking from resume point to resume point
 * still finds every match exactly once.
 */

let entries: MediaLogEntry[];
const months = ['2026-03', '2026-04'];

beforeAll(async () => {
  entries = sampleMediaLogEntries(1200, { userIds: [7, 8, 9], start: new Date('2026-03-01T00:00:00Z'), spanMs: 60 * 86_400_000, seed: 5 });
  await storeEntries(entries);
}, 240_000);

const SEND_KEY = MEDIA_LOG_ATTRIBUTES.sendKey;

/** The whole log's shards, each a stream whose items count only once checked. */
function logStreams(): SortedStream[] {
  return mediaLogKeys.logShards().map((value) => ({ partitions: [{ indexName: mediaLogIndexName('log'), attribute: MEDIA_LOG_ATTRIBUTES.partition.log, value }], checked: true }));
}

describe('the read budget of a page', () => {
  it('ends a page early, never over budget, and a walk from resume point to resume point finds every match once', async () => {
    const expected = entries
      .filter((entry) => entry.status === 'processing')
      .map((entry) => `${entry.send}#${entry.id}`)
      .sort()
      .reverse();
    expect(expected.length).toBeGreaterThan(3);
    expect(new Set(entries.map((entry) => bucketOf('month', entry.send)))).toEqual(new Set(months));
    const byKey = new Map(entries.map((entry) => [mediaLogKeys.entry(entry.id).pk, entry]));
    const found: string[] = [];
    let after: string | undefined;
    let shortPages = 0;
    for (let page = 0; page < 500; page += 1) {
      const meter = attachReadMeter(getDocumentClient());
      let checked = 0;
      const result = await readMergedPage(getDocumentClient(), {
        tableName: tableName(mediaLogTable),
        sortAttribute: SEND_KEY,
        streams: logStreams(),
        window: windowAfter({}, after, false),
        ascending: false,
        skip: 0,
        take: 5,
        readBudget: 40,
        // The rare status, known from the entries stored: the engine's budget holds whatever the check reads.
        check: async (items) => {
          checked += items.length;
          return items.map((item) => byKey.get(String(item.pk))?.status === 'processing');
        },
      });
      meter.detach();
      expect(meter.tally().indexItems + checked).toBeLessThanOrEqual(40);
      found.push(...result.items.map((item) => item[SEND_KEY] as string));
      if (result.budgetSpent) shortPages += 1;
      if (!result.more) break;
      expect(result.resumeAfter).toBeDefined();
      if (after !== undefined) expect((result.resumeAfter as string) < after).toBe(true);
      after = result.resumeAfter;
    }
    expect(shortPages).toBeGreaterThan(0);
    expect(found).toEqual(expected);
    // A walk of some thirty short pages over five shards: a few hundred Queries.
  }, 240_000);
});
