import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENTRY_KEY_PREFIX, mediaLogKeys } from '../../functions/media-log/model/keys';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { tableName } from '../../functions/shared/config/data-config';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { PAGED_SEGMENTS, parallelScan, scanShape, segmentOrder } from '../../functions/shared/tables/parallel-scan';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { storeEntries } from '../harness/media-log';

/**
 * The one parallel Scan (recount, migrate, backfill): split by the table's size as AWS advises,
 * every item read exactly once, never more segments in flight than its workers.
 */

let entries: MediaLogEntry[];

beforeAll(async () => {
  entries = sampleMediaLogEntries(600, { userIds: [81_001, 81_002], start: new Date('2026-05-01T00:00:00Z'), spanMs: 20 * 86_400_000, seed: 17 });
  await storeEntries(entries);
}, 120_000);

describe('scanShape', () => {
  it('splits a table one segment per page up to the paged count, then one per 2 GB, never more than DynamoDB allows', () => {
    expect(scanShape(undefined, 8)).toEqual({ segments: PAGED_SEGMENTS, workers: 8 });
    expect(scanShape(0, 4).segments).toBe(1);
    expect(scanShape(200_000, 4).segments).toBe(1);
    expect(scanShape(45 * 1024 ** 2, 4).segments).toBe(45);
    expect(scanShape(100 * 1024 ** 3, 4).segments).toBe(PAGED_SEGMENTS);
    // 9 TB: ninety days of the media log at the design rate.
    expect(scanShape(9 * 1024 ** 4, 4).segments).toBe(4608);
    expect(scanShape(1024 ** 6, 4).segments).toBe(1_000_000);
  });
});

describe('segmentOrder', () => {
  it.each([
    [256, 8],
    [10, 4],
    [7, 7],
    [3, 8],
    [4608, 8],
  ])('takes each of %i segments once with %i workers, the first ones far apart', (segments, workers) => {
    const order = segmentOrder({ segments, workers });
    expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: segments }, (_, segment) => segment));
    const first = order.slice(0, Math.min(segments, workers));
    const span = Math.ceil(segments / workers);
    expect(first).toEqual(first.map((_, range) => range * span));
  });
});

describe('parallelScan', () => {
  it('reads every item exactly once, with the Scan input it is given, never more segments in flight than its workers', async () => {
    const real = getDocumentClient();
    let inFlight = 0;
    let most = 0;
    // The real client, watched: how many requests it has in flight at once.
    const watched = {
      send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        most = Math.max(most, ++inFlight);
        try {
          return await real.send(command);
        } finally {
          inFlight -= 1;
        }
      },
    } as DynamoDBDocumentClient;
    const ids: string[] = [];
    let pages = 0;

    await parallelScan(watched, { TableName: tableName(mediaLogTable), FilterExpression: 'begins_with(pk, :entry)', ExpressionAttributeValues: { ':entry': ENTRY_KEY_PREFIX }, ProjectionExpression: 'pk' }, { segments: 64, workers: 3 }, async (items) => {
      pages += 1;
      // A slow consumer holds its worker: the others do not start more segments meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 2));
      for (const item of items) ids.push(mediaLogKeys.idOf(String(item.pk)));
    });

    expect(ids.length).toBe(entries.length);
    expect(new Set(ids)).toEqual(new Set(entries.map((entry) => entry.id)));
    expect(pages).toBeGreaterThanOrEqual(64);
    expect(most).toBe(3);
  }, 60_000);
});
