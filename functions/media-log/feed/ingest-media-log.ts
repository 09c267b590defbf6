import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { getDocumentClient } from '../../shared/aws/clients';
import { dataConfig } from '../../shared/config/data-config';
import { ValidationError } from '../../shared/errors';
import { lazy } from '../../shared/lazy';
import { logger } from '../../shared/logger';
import type { FeedOutcome } from '../../shared/observability/metric-catalog';
import { withinInvocation } from '../../shared/observability/invocation-context';
import { invocationTelemetry } from '../../shared/observability/invocation-telemetry';
import { recordFeedMessages } from '../../shared/observability/metrics';
import { createFeedWriters, applyFeedChanges } from './apply-changes';
import { parseFeedBody, type FeedChange } from './feed-messages';

// A function deployed without its table names fails its cold start, not its first message.
dataConfig();
// The entry and status writers alone: the consumer stores and changes entries, it lists nothing.
const writers = /* @__PURE__ */ lazy(() => createFeedWriters(getDocumentClient()));

/** What became of one message of a batch, with the reason when it did not apply. */
interface Settled {
  readonly outcome: FeedOutcome;
  readonly reason?: string;
}

/** A message the queue is to deliver again (it failed, or can never apply and must reach the dead-letter queue). */
class MessageNotAppliedError extends Error {
  public constructor(outcome: FeedOutcome, reason: string | undefined) {
    super(`${outcome}: ${reason ?? ''}`);
    this.name = 'MessageNotAppliedError';
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof ValidationError) return (error.errors ?? []).map((field) => `${field.name}: ${field.reason}`).join('; ') || (error.detail ?? error.message);
  return error instanceof Error ? error.message : String(error);
}

/**
 * Every message of a batch applied, by message id. What one message's write does depends on the
 * others of its batch (a status waits for its request in the same batch; one entry's changes apply
 * in message order), so the batch's changes are applied together, by the feed's own plan
 * (apply-changes.ts, which the import and the bench run too); a message that does not parse is
 * settled as malformed without a write.
 */
async function applyBatch(records: readonly SQSRecord[]): Promise<Map<string, Settled>> {
  const settled = new Map<string, Settled>();
  const parsed: { messageId: string; change: FeedChange }[] = [];
  for (const record of records) {
    try {
      parsed.push({ messageId: record.messageId, change: parseFeedBody(record.body, { plainEntries: false }) });
    } catch (error) {
      settled.set(record.messageId, { outcome: 'malformed', reason: reasonOf(error) });
    }
  }
  const results = await applyFeedChanges(writers(), parsed.map(({ change }) => change));
  results.forEach((result, index) => settled.set((parsed[index] as { messageId: string }).messageId, result));
  return settled;
}

/**
 * Powertools' record handler: one message, as its batch settled it. A message that applied, or
 * changed nothing, is done; any other is logged with its reason and thrown, which Powertools
 * reports as a batch item failure: the queue delivers it again, and after its fifth receive moves
 * it to the dead-letter queue.
 */
function settle(record: SQSRecord, settled: ReadonlyMap<string, Settled>): void {
  const { outcome, reason } = settled.get(record.messageId) as Settled;
  if (outcome === 'applied' || outcome === 'ignored') return;
  if (outcome === 'malformed') logger.warn('Feed message rejected', { messageId: record.messageId, outcome, reason, receiveCount: record.attributes?.ApproximateReceiveCount });
  else logger[outcome === 'failed' ? 'error' : 'warn']('Feed message not applied', { messageId: record.messageId, outcome, reason });
  throw new MessageNotAppliedError(outcome, reason);
}

/** The batch's messages by outcome, counted in FeedMessages and logged in one line. */
function report(settled: ReadonlyMap<string, Settled>): void {
  const counts: Partial<Record<FeedOutcome, number>> = {};
  for (const { outcome } of settled.values()) counts[outcome] = (counts[outcome] ?? 0) + 1;
  for (const [outcome, count] of Object.entries(counts) as [FeedOutcome, number][]) recordFeedMessages(outcome, count);
  logger.info('Feed batch', { messages: settled.size, ...counts });
}

/**
 * Applies the messages of a batch and answers with those to retry, as an SQS event source mapping
 * with `ReportBatchItemFailures` expects
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html#services-sqs-batchfailurereporting),
 * through Powertools' batch processing
 * (https://docs.aws.amazon.com/powertools/typescript/latest/features/batch/). A message is retried
 * when it failed to apply, when its entry is not stored yet, and when it can never apply
 * (malformed, or an id holding another request); it never holds back the rest of its batch. A batch
 * whose every message is retried is answered so too, not thrown (Powertools' default): the queue
 * delivers them again either way, and the function's error alarm stays for its own failures.
 */
async function ingest(event: SQSEvent, context: Context): Promise<SQSBatchResponse> {
  const records = event.Records ?? [];
  const settled = await applyBatch(records);
  // A processor per batch, made inside the invocation's context: where invocations share the
  // process, Powertools keeps a processor's state in that context from the moment it is made.
  const response = await withinInvocation(context, () =>
    processPartialResponse({ Records: records }, (record: SQSRecord) => settle(record, settled), new BatchProcessor(EventType.SQS), { context, throwOnFullBatchFailure: false }),
  );
  report(settled);
  return response;
}

/**
 * The consumer of the `MediaLogEvents` queue (DESIGN.md section 7a). Its lines carry the Lambda
 * context like every function's; a queue message has no API request, so no correlation id.
 */
export const handler = middy<SQSEvent, SQSBatchResponse>(ingest, { timeoutEarlyInMillis: 0 }).use(invocationTelemetry<SQSEvent, SQSBatchResponse>(() => ({})));
