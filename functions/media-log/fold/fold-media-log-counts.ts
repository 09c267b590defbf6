import middy from '@middy/core';
import type { DynamoDBStreamEvent } from 'aws-lambda';
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

/**
 * A batch of a table's stream as a fold stage's event source mapping delivers it. The mapping runs
 * with a tumbling window, the one way Lambda names the batch's shard in the event (`shardId`,
 * https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html); each stage keeps a
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
// The delta writer, built once at first use (and anew after resetEveryLazy(), for a process that switches databases).
const deltaFold = /* @__PURE__ */ lazy(() => new DeltaFold(getDocumentClient(), tableName(mediaLogDeltasTable)));

/** Seconds between the oldest record of the batch and now: how far the stage trails its stream. */
export function lagSeconds(event: MediaLogStreamEvent): number | undefined {
  const times = (event.Records ?? []).map((record) => record.dynamodb?.ApproximateCreationDateTime).filter((time): time is number => typeof time === 'number');
  return times.length === 0 ? undefined : Math.max(0, Date.now() / 1000 - Math.min(...times));
}

/** The shard that a batch's event names; a fold stage keeps a watermark per shard, so an event without one is refused. */
export function shardOf(event: MediaLogStreamEvent): string {
  if (typeof event.shardId !== 'string' || event.shardId === '') {
    throw new Error('The stream event names no shardId: the fold keeps a watermark per shard, so its event source mapping must use a tumbling window.');
  }
  return event.shardId;
}

/** Where a batch came from, for the report of a record skipped. */
export function batchSource(event: MediaLogStreamEvent): { shardId: string; streamArn?: string } {
  const streamArn = event.eventSourceARN ?? event.Records?.[0]?.eventSourceARN;
  return { shardId: event.shardId ?? '', ...(streamArn === undefined ? {} : { streamArn }) };
}

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
