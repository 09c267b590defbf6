import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { getDocumentClient } from '../../shared/aws/clients';
import { dataConfig } from '../../shared/config/data-config';
import { ValidationError } from '../../shared/errors';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import type { FeedOutcome } from '../../shared/observability/metric-catalog';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { recordFeedMessages } from '../../shared/observability/metrics';
import { createFeedWriters, applyFeedChanges } from './apply-changes';
import { parseFeedBody, type FeedChange } from './feed-messages';

// A function deployed without its table names fails its cold start, not its first message.
dataConfig();
// The entry and status writers alone: the consumer stores and changes entries, it lists nothing.
const writers = /* @__PURE__ */ lazy(() => createFeedWriters(getDocumentClient()));

function reasonOf(error: unknown): string {
  if (error instanceof ValidationError) return (error.errors ?? []).map((field) => `${field.name}: ${field.reason}`).join('; ') || (error.detail ?? error.message);
  return error instanceof Error ? error.message : String(error);
}

/** The messages of a batch that parse, and the ids of those that do not (logged with the reason). */
function parseRecords(records: readonly SQSRecord[]): { parsed: { messageId: string; change: FeedChange }[]; malformed: string[] } {
  const parsed: { messageId: string; change: FeedChange }[] = [];
  const malformed: string[] = [];
  for (const record of records) {
    try {
      parsed.push({ messageId: record.messageId, change: parseFeedBody(record.body, { plainEntries: false }) });
    } catch (error) {
      logger.warn('Feed message rejected', { messageId: record.messageId, outcome: 'malformed', reason: reasonOf(error), receiveCount: record.attributes?.ApproximateReceiveCount });
      malformed.push(record.messageId);
    }
  }
  return { parsed, malformed };
}

/**
 * Applies each message of a batch and answers with the messages to retry, as an SQS event source
 * mapping with `ReportBatchItemFailures` expects
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html#services-sqs-batchfailurereporting).
 * A message is retried when it failed to apply, when its entry is not stored yet, and when it can
 * never apply (malformed, or an id holding another request): the queue then moves it to the
 * dead-letter queue after its fifth receive, and it never holds back the rest of its batch.
 */
async function ingest(event: SQSEvent): Promise<SQSBatchResponse> {
  const records = event.Records ?? [];
  const { parsed, malformed } = parseRecords(records);
  const results = await applyFeedChanges(writers(), parsed.map(({ change }) => change));
  const failures = malformed.map((itemIdentifier) => ({ itemIdentifier }));
  const counts: Partial<Record<FeedOutcome, number>> = malformed.length > 0 ? { malformed: malformed.length } : {};
  results.forEach((result, index) => {
    const { messageId } = parsed[index] as { messageId: string };
    counts[result.outcome] = (counts[result.outcome] ?? 0) + 1;
    if (result.outcome === 'applied' || result.outcome === 'ignored') return;
    logger[result.outcome === 'failed' ? 'error' : 'warn']('Feed message not applied', { messageId, outcome: result.outcome, reason: result.reason });
    failures.push({ itemIdentifier: messageId });
  });
  for (const [outcome, count] of Object.entries(counts) as [FeedOutcome, number][]) recordFeedMessages(outcome, count);
  logger.info('Feed batch', { messages: records.length, ...counts });
  return { batchItemFailures: failures };
}

/**
 * The consumer of the `MediaLogEvents` queue (DESIGN.md section 7a). Its lines carry the Lambda
 * context like every function's; a queue message has no API request, so no correlation id.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>(ingest, { timeoutEarlyInMillis: 0 }).use(invocationTelemetry<SQSEvent, SQSBatchResponse>(() => ({})));
