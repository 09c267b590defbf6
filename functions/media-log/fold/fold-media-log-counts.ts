import middy from '@middy/core';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import { getDocumentClient } from '../../shared/aws/clients';
import { dataConfig, tableName } from '../../shared/config/data-config';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { mediaLogCountsTable } from '../../shared/tables/media-log-table';
import { CountFold } from './count-fold';
import { foldConfig } from './fold-config';
import { reportSkippedRecords } from './failure-reports';
import { readEntryChanges } from './stream-changes';
import { Retention } from '../model/retention';

/**
 * A batch of the media log's stream as the event source mapping delivers it. The mapping runs with
 * a tumbling window, the one way Lambda names the batch's shard in the event (`shardId`,
 * https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html); the fold keeps a
 * watermark per shard, so it needs the name.
 */
export interface MediaLogStreamEvent extends DynamoDBStreamEvent {
  readonly shardId?: string;
  readonly eventSourceARN?: string;
  readonly window?: { readonly start: string; readonly end: string };
  readonly state?: Record<string, string>;
  readonly isFinalInvokeForWindow?: boolean;
  readonly isWindowTerminatedEarly?: boolean;
}

/** The answer a tumbling window requires (`state`, kept empty: the counters are the state). */
export interface MediaLogStreamResponse {
  readonly state: Record<string, string>;
  readonly batchItemFailures: readonly { readonly itemIdentifier: string }[];
}

// A function deployed without its table names fails its cold start, not its first batch.
dataConfig();
// The counter writer, built once at first use (and anew after resetEveryLazy(), for a process that switches databases).
const countFold = /* @__PURE__ */ lazy(() => new CountFold(getDocumentClient(), tableName(mediaLogCountsTable), undefined, foldConfig().writesInFlight, Retention.configured()));

/** Seconds between the oldest record of the batch and now: how far the counters trail the entries. */
function lagSeconds(event: MediaLogStreamEvent): number | undefined {
  const times = (event.Records ?? []).map((record) => record.dynamodb?.ApproximateCreationDateTime).filter((time): time is number => typeof time === 'number');
  return times.length === 0 ? undefined : Math.max(0, Date.now() / 1000 - Math.min(...times));
}

/**
 * Folds one batch into the counters (DESIGN.md section 7b). A failure throws: the mapping retries
 * the batch, bisecting it, and the watermarks make every record count once whatever it delivers
 * again. A record that cannot be read never fails the batch: it is reported and skipped
 * (failure-reports.ts), since no retry makes it readable.
 */
async function fold(event: MediaLogStreamEvent): Promise<MediaLogStreamResponse> {
  const records = event.Records ?? [];
  if (records.length > 0 && (typeof event.shardId !== 'string' || event.shardId === '')) {
    throw new Error('The stream event names no shardId: the fold keeps a watermark per shard, so its event source mapping must use a tumbling window.');
  }
  const { changes, unreadable } = readEntryChanges(records);
  const streamArn = event.eventSourceARN ?? records[0]?.eventSourceARN;
  await reportSkippedRecords(unreadable, { shardId: event.shardId as string, ...(streamArn === undefined ? {} : { streamArn }) });
  const outcome = changes.length === 0 ? { counters: 0, written: 0, alreadyFolded: 0 } : await countFold().apply(event.shardId as string, changes);
  const lag = lagSeconds(event);
  logger.info('Fold batch', { shardId: event.shardId, records: records.length, changes: changes.length, skipped: unreadable.length, ...outcome, ...(lag === undefined ? {} : { lagSeconds: Math.round(lag) }) });
  return { state: {}, batchItemFailures: [] };
}

/** The consumer of the media log table's stream: keeps the counters behind totals and status filters. */
export const handler = middy<MediaLogStreamEvent, MediaLogStreamResponse>(fold, { timeoutEarlyInMillis: 0 }).use(
  invocationTelemetry<MediaLogStreamEvent, MediaLogStreamResponse>(() => ({})),
);
