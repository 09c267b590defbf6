import { ScanCommand, type DynamoDBDocumentClient, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { mapConcurrently } from '../async/map-concurrently';

/**
 * A parallel Scan of a whole table: the one loop behind the media log's recount, its migration from
 * a previous layout and the families' backfill.
 *
 * How many segments: AWS's starting ratio is one segment per 2 GB of data (Developer Guide, "Best
 * practices for querying and scanning data", Choosing TotalSegments), so a table of the media log at
 * the design rate (~100 GB a day) needs hundreds within weeks. A smaller table gets one segment per
 * page of data (1 MB) up to {@link PAGED_SEGMENTS}: a segment costs nothing by itself (a Scan is
 * charged by the data it reads), small segments let the workers finish together (a worker that drew
 * a large segment does not keep the run going while the others idle), and DynamoDB Local's Scan
 * costs grow with the square of a segment's size (a page of one segment took 0.26 s at 10,000
 * entries and 0.74 s at 40,000; a table of 100,000 entries, 45 MB, scanned in 15.9 s with 4 segments,
 * 4.6 s with 16 and 3.0 s with 64 or more, by four workers), so local runs stay linear. A table of
 * unknown size gets {@link PAGED_SEGMENTS}.
 *
 * How many at once: `workers`, each scanning one segment at a time. They take the segments in the
 * order the Developer Guide advises ("Parallel scan performance"): the segment space split into one
 * range per worker, the workers moving through their ranges side by side, so that segments scanned
 * at the same time map to distant parts of the table's storage.
 */

/** Segments of a table below 512 GB at most: one per page of data up to this many (see the module comment). */
export const PAGED_SEGMENTS = 256;
/** A Scan page: at most 1 MB of data. */
const PAGE_BYTES = 1024 ** 2;
/** AWS's starting ratio: one segment per this many bytes of table. */
const BYTES_PER_SEGMENT = 2 * 1024 ** 3;
/** DynamoDB's largest `TotalSegments`. */
const MAX_SCAN_SEGMENTS = 1_000_000;

/** How a parallel Scan is split: `segments` in all, `workers` scanned at once. */
export interface ScanShape {
  readonly segments: number;
  readonly workers: number;
}

/** The shape of a scan of a table of `tableBytes` (DescribeTable's `TableSizeBytes`), `workers` segments at a time. */
export function scanShape(tableBytes: number | undefined, workers: number): ScanShape {
  if (tableBytes === undefined) return { segments: PAGED_SEGMENTS, workers };
  const byPages = Math.min(PAGED_SEGMENTS, Math.ceil(tableBytes / PAGE_BYTES));
  const bySize = Math.ceil(tableBytes / BYTES_PER_SEGMENT);
  return { segments: Math.min(MAX_SCAN_SEGMENTS, Math.max(1, byPages, bySize)), workers };
}

/** What a parallel Scan asks of each page: the Scan's input less what the scan itself sets. */
export type ParallelScanInput = Omit<ScanCommandInput, 'Segment' | 'TotalSegments' | 'ExclusiveStartKey'>;

/**
 * Scan every segment of the table, `shape.workers` segments at a time, handing each page's items to
 * `onPage` (awaited before that segment reads on, so a slow consumer holds its worker's pages back).
 */
export async function parallelScan(
  client: DynamoDBDocumentClient,
  input: ParallelScanInput,
  shape: ScanShape,
  onPage: (items: readonly Record<string, unknown>[]) => void | Promise<void>,
): Promise<void> {
  await mapConcurrently(segmentOrder(shape), shape.workers, async (segment) => {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await client.send(new ScanCommand({ ...input, Segment: segment, TotalSegments: shape.segments, ExclusiveStartKey: start }));
      await onPage(page.Items ?? []);
      start = page.LastEvaluatedKey;
    } while (start !== undefined);
  });
}

/** The segments in the order the workers take them: one range each, the ranges walked side by side. */
export function segmentOrder({ segments, workers }: ScanShape): number[] {
  const span = Math.ceil(segments / Math.max(1, workers));
  const order: number[] = [];
  for (let step = 0; step < span; step++) {
    for (let range = 0; range * span < segments; range++) {
      const segment = range * span + step;
      if (segment < segments) order.push(segment);
    }
  }
  return order;
}
