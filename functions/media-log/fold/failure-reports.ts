import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { clientOptions, CLIENT_LIMITS } from '../../shared/aws/clients';
import { dataConfig } from '../../shared/config/data-config';
import { logger } from '../../shared/logger';
import { recordMetric } from '../../shared/observability/metrics';
import { traced } from '../../shared/observability/tracing';
import type { UnreadableRecord } from './stream-changes';

/**
 * What the fold does with a stream record it cannot read (an image without a field a counter
 * needs): it never fails its batch for it, since retrying cannot make the record readable and would
 * hold back the shard until the mapping gives up an hour later. Each such record is logged with its
 * key and reason, counted (`MediaLogFoldSkipped`, alarmed), described in the mapping's failure
 * queue in the shape Lambda uses for a batch it gave up on (one record long), and skipped; `media-log
 * recount` then repairs the counts it left out (docs/operations.md, "Watching, replaying and repairing the fold").
 */

/** Where the records come from: the batch's shard and stream. */
export interface BatchSource {
  readonly shardId: string;
  readonly streamArn?: string;
}

const clients = new Map<string, SQSClient>();

/**
 * A failure queue's client, built on first use (most batches skip nothing), sending to the queue
 * URL's own host: SQS's regional endpoint in AWS (`https://sqs.<region>.amazonaws.com/…`), one
 * client per host.
 */
function queueClient(queueUrl: string): SQSClient {
  const { origin } = new URL(queueUrl);
  const client = clients.get(origin) ?? traced(new SQSClient(clientOptions({ region: dataConfig().region, endpoint: origin, limits: CLIENT_LIMITS })));
  clients.set(origin, client);
  return client;
}

/**
 * The description of a skipped record, as Lambda describes a stream batch it gave up on
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html), one record long,
 * with the reason and the record's key.
 */
export function failureReport(record: UnreadableRecord, source: BatchSource): Record<string, unknown> {
  return {
    requestContext: { condition: 'UnreadableRecord', approximateInvokeCount: 1 },
    DDBStreamBatchInfo: { shardId: source.shardId, startSequenceNumber: record.sequence, endSequenceNumber: record.sequence, batchSize: 1, ...(source.streamArn ? { streamArn: source.streamArn } : {}) },
    reason: record.reason,
    ...(record.keys ? { keys: record.keys } : {}),
  };
}

/**
 * Log, count and report the records of a batch a fold stage skips, to `queueUrl` (its mapping's
 * failure queue; unset locally). A report that cannot be sent fails the batch: it is retried, and
 * nothing is lost.
 */
export async function reportSkippedRecords(records: readonly UnreadableRecord[], source: BatchSource, queueUrl: string | undefined): Promise<void> {
  if (records.length === 0) return;
  for (const record of records) logger.error('Fold record skipped', { shardId: source.shardId, sequence: record.sequence, keys: record.keys, reason: record.reason });
  recordMetric('MediaLogFoldSkipped', records.length, {});
  // Locally there is no queue: the log line is the report.
  if (queueUrl === undefined) return;
  for (const record of records) await queueClient(queueUrl).send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(failureReport(record, source)) }));
}
