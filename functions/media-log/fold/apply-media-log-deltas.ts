import middy from '@middy/core';
import { getDocumentClient } from '../../shared/aws/clients';
import { dataConfig, tableName } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { mediaLogCountsTable, mediaLogDeltasTable } from '../../shared/tables/media-log-table';
import { Retention } from '../model/retention';
import { deleteAppliedDeltas } from './applied-deltas';
import { CountFold } from './count-fold';
import { readDeltaRecords } from './delta-items';
import { reportSkippedRecords } from './failure-reports';
import { foldConfig } from './fold-config';
import { batchSource, lagSeconds, shardOf, type MediaLogStreamEvent, type MediaLogStreamResponse } from './stream-batch';

// A function deployed without its table names fails its cold start, not its first batch.
dataConfig();
// The counter writer, built once at first use (and anew after resetEveryLazy(), for a process that switches databases).
const countFold = /* @__PURE__ */ lazy(() => new CountFold(getDocumentClient(), tableName(mediaLogCountsTable), undefined, foldConfig().writesInFlight, Retention.configured()));

/**
 * Adds one batch of the first stage's deltas to the counters, the fold's second stage (DESIGN.md
 * 7b, round five): each counter item once per batch, with this shard's watermark, then deletes the
 * deltas applied. A failure throws: the mapping retries the batch, bisecting it, and the watermarks
 * make every delta count once whatever it delivers again. A record that is no delta is reported and
 * skipped, as the first stage does with records it cannot read.
 */
async function applyDeltas(event: MediaLogStreamEvent): Promise<MediaLogStreamResponse> {
  const records = event.Records ?? [];
  if (records.length === 0) return { state: {}, batchItemFailures: [] };
  const shardId = shardOf(event);
  const { counters, applied, unreadable } = readDeltaRecords(records);
  await reportSkippedRecords(unreadable, batchSource(event), foldConfig().deltaFailureQueueUrl);
  const outcome = counters.size === 0 ? { counters: 0, written: 0, alreadyFolded: 0 } : await countFold().apply(shardId, counters);
  await deleteAppliedDeltas(getDocumentClient(), tableName(mediaLogDeltasTable), applied);
  const lag = lagSeconds(event);
  logger.info('Fold deltas batch', { shardId, records: records.length, deltas: applied.length, skipped: unreadable.length, ...outcome, ...(lag === undefined ? {} : { lagSeconds: Math.round(lag) }) });
  return { state: {}, batchItemFailures: [] };
}

/** The consumer of the deltas table's stream: writes the counters behind totals and status filters. */
export const handler = middy<MediaLogStreamEvent, MediaLogStreamResponse>(applyDeltas, { timeoutEarlyInMillis: 0 }).use(
  invocationTelemetry<MediaLogStreamEvent, MediaLogStreamResponse>(() => ({})),
);
