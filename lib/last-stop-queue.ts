import { Duration } from 'aws-cdk-lib';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { acknowledgeFindings } from './nag-acknowledgements';

/** How long SQS keeps a message at most: a failure waits for an operator through any holiday. */
export const LONGEST_RETENTION = Duration.days(14);

/**
 * A queue where failures end (a dead-letter queue, an on-failure destination): encrypted with
 * SQS-managed keys, which every AWS sender may use without a grant on a KMS key (EventBridge cannot
 * send to a queue under the AWS managed KMS key), reachable over TLS only, and kept as long as SQS
 * keeps anything. Nothing consumes it, so it has no dead-letter queue of its own: `reason` says
 * whose failures it holds and who reads them, for the cdk-nag findings that ask for one.
 */
export function lastStopQueue(scope: Construct, id: string, reason: string): sqs.Queue {
  const queue = new sqs.Queue(scope, id, {
    encryption: sqs.QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: LONGEST_RETENTION,
  });
  acknowledgeFindings(queue, { 'AwsSolutions-SQS3': reason, 'Serverless-SQSRedrivePolicy': reason });
  return queue;
}
