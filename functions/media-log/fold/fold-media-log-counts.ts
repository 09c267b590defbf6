import middy from '@middy/core';
import { getDocumentClient } from '../../shared/aws/clients';
import { dataConfig, tableName } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { mediaLogDeltasTable } from '../../shared/tables/media-log-table';
import { DeltaFold } from './delta-fold';
import { foldConfig } from './fold-config';
import { reportSkippedRecords } from './failure-reports';
import { readEntryChanges } from './stream-changes';
import { batchSource, lagSeconds, shardOf, type MediaLogStreamEvent, type MediaLogStreamResponse } from './stream-batch';

// A function deployed without its table names fails its cold start, not its first batch.
dataConfig();
// The delta writer, built once at first use (and anew after resetEveryLazy(), for a process that switches databases).
const deltaFold = /* @__PURE__ */ lazy(() => new DeltaFold(getDocumentClient(), tableName(mediaLogDeltasTable)));

/**
 * Folds one batch into counter deltas, the fold's first stage (DESIGN.md 7b, round five). A
 * failure throws: the mapping retries the batch, bisecting it, and the shard's watermark makes every
 * record count once whatever it delivers again. A record that cannot be read never fails the batch:
 * it is reported and skipped (failure-reports.ts), since no retry makes it readable.
 */
async function fold(event: MediaLogStreamEvent): Promise<MediaLogStreamResponse> {
  const records = event.Records ?? [];
  if (records.length === 0) return { state: {}, batchItemFailures: [] };
  const shardId = shardOf(event);
  const { changes, unreadable } = readEntryChanges(records);
  await reportSkippedRecords(unreadable, batchSource(event), foldConfig().failureQueueUrl);
  const outcome = changes.length === 0 ? { transactions: 0, deltaItems: 0, alreadyFolded: 0 } : await deltaFold().apply(shardId, changes);
  const lag = lagSeconds(event);
  logger.info('Fold batch', { shardId, records: records.length, changes: changes.length, skipped: unreadable.length, ...outcome, ...(lag === undefined ? {} : { lagSeconds: Math.round(lag) }) });
  return { state: {}, batchItemFailures: [] };
}

/** The consumer of the media log table's stream: the first stage of the counters behind totals and status filters. */
export const handler = middy<MediaLogStreamEvent, MediaLogStreamResponse>(fold, { timeoutEarlyInMillis: 0 }).use(
  invocationTelemetry<MediaLogStreamEvent, MediaLogStreamResponse>(() => ({})),
);
