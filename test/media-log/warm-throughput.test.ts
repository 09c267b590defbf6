import { DESIGN_RATE } from '../../functions/media-log/model/shards';
import { STATUS_FIELDS } from '../../functions/media-log/model/entry-fields';
import { MEDIA_LOG_WARM_WRITES, mediaLogCountsTable, mediaLogTable, STATUS_INDEX_KINDS, mediaLogIndexName } from '../../functions/shared/tables/media-log-table';

/**
 * The warm throughput of the media log's tables (a layout change creates them; they take the feed
 * from their first second) follows the design rate the shards are sized for, not a number of its own.
 */
describe('the media log tables warm for the design rate', () => {
  const { entriesPerSecond, changesPerEntry } = DESIGN_RATE;

  it('the entries: a put and every status change of each request, each under a KB', () => {
    expect(changesPerEntry).toBe(2 * STATUS_FIELDS.length);
    expect(mediaLogTable.warmWrites).toBe(entriesPerSecond * (1 + changesPerEntry));
  });

  it('each status index: into pending, moved to processing (a delete and a put), out at the final value', () => {
    for (const kind of STATUS_INDEX_KINDS) {
      expect(mediaLogTable.indexes.find((index) => index.indexName === mediaLogIndexName(kind))?.warmWrites).toBe(4 * entriesPerSecond);
    }
    // The others take one write per request, within the 4,000 a new table starts with.
    expect(mediaLogTable.indexes.filter((index) => index.warmWrites === undefined)).toHaveLength(mediaLogTable.indexes.length - STATUS_INDEX_KINDS.length);
    expect(entriesPerSecond).toBeLessThanOrEqual(4000);
  });

  it('the counters: at most 12 write units a request, the fold’s share of the lifecycle budget', () => {
    expect(mediaLogCountsTable.warmWrites).toBe(MEDIA_LOG_WARM_WRITES.counters);
    expect(MEDIA_LOG_WARM_WRITES.counters).toBe(12 * entriesPerSecond);
  });
});
