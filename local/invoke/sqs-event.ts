import { createHash, randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { deployedFunctions } from '../../functions/deployed-functions';
import { LOCAL_REGION } from '../local-defaults';
import type { QueueEvent } from './event-shape';

/** The account id of generated ARNs, as `sam local generate-event` writes it. */
const SAMPLE_ACCOUNT = '123456789012';

/** The queues the service's consumers read, by name. */
export function consumedQueues(): string[] {
  return deployedFunctions.flatMap((fn) => (fn.kind === 'queue' ? [fn.consumer.queue] : []));
}

/**
 * An SQS event holding one message per body, shaped as Lambda delivers a standard queue's messages
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html#example-standard-queue-message-event)
 * and as `sam local generate-event sqs receive-message` prints them: a fresh message id and
 * receipt handle each, the body's MD5, first receive.
 */
export function generateSqsEvent(bodies: readonly string[], queue: string, now: Date = new Date()): QueueEvent {
  const sent = String(now.getTime());
  const records = bodies.map(
    (body): SQSRecord => ({
      messageId: randomUUID(),
      receiptHandle: `local-${randomUUID()}`,
      body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: sent, SenderId: SAMPLE_ACCOUNT, ApproximateFirstReceiveTimestamp: sent },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(body).digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${process.env.AWS_REGION ?? LOCAL_REGION}:${SAMPLE_ACCOUNT}:${queue}`,
      awsRegion: process.env.AWS_REGION ?? LOCAL_REGION,
    }),
  );
  return { Records: records };
}
