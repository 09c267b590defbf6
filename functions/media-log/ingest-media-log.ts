import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { dataConfig } from '../shared/config/data-config';
import { ValidationError } from '../shared/errors';
import { logger } from '../shared/logger';
import { ingestFeedChanges, type FeedResult } from './ingest/feed-ingest';
import { parseFeedBody, type FeedChange } from './ingest/feed-messages';
import { feedWriters } from './media-log-context';

/**
 * The consumer of the `MediaLogEvents` queue (DESIGN.md section 7a): applies each message of a
 * batch and answers with the messages to retry, as an SQS event source mapping with
 * `ReportBatchItemFailures` expects (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html#services-sqs-batchfailurereporting).
 * A message is retried when it failed to apply, when its entry is not stored yet, and when it can
 * never apply (malformed, or an id holding another request): the queue then moves it to the
 * dead-letter queue after its fifth receive, and it never holds back the rest of its batch.
 */

// A function deployed without its table names fails its cold start, not its first message.
dataConfig();

function reasonOf(error: unknown): string {
  if (error instanceof ValidationError) return (error.errors ?? []).map((field) => `${field.name}: ${field.reason}`).join('; ') || (error.detail ?? error.message);
  return error instanceof Error ? error.message : String(error);
}

/** The SQS handler. */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const records = event.Records ?? [];
  const parsed: { messageId: string; change: FeedChange }[] = [];
  const failures: { itemIdentifier: string }[] = [];
  for (const record of records) {
    try {
      parsed.push({ messageId: record.messageId, change: parseFeedBody(record.body, { plainEntries: false }) });
    } catch (error) {
      logger.warn('Feed message rejected', { messageId: record.messageId, outcome: 'malformed', reason: reasonOf(error), receiveCount: record.attributes?.ApproximateReceiveCount });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  const results: FeedResult[] = await ingestFeedChanges(feedWriters(), parsed.map(({ change }) => change));
  const counts: Record<string, number> = { malformed: failures.length };
  results.forEach((result, index) => {
    const { messageId } = parsed[index] as { messageId: string };
    counts[result.outcome] = (counts[result.outcome] ?? 0) + 1;
    if (result.outcome === 'applied' || result.outcome === 'ignored') return;
    const level = result.outcome === 'failed' ? 'error' : 'warn';
    logger[level]('Feed message not applied', { messageId, outcome: result.outcome, reason: result.reason });
    failures.push({ itemIdentifier: messageId });
  });
  logger.info('Feed batch', { messages: records.length, ...counts });
  return { batchItemFailures: failures };
}
