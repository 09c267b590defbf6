import { CfnOutput, Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { QueueConsumerDefinition } from '../../functions/shared/deployment/function-definitions';
import { grantFunctionData } from '../data-grants';
import { LONGEST_RETENTION, lastStopQueue } from '../last-stop-queue';
import { acknowledgeFindings } from '../nag-acknowledgements';
import type { FunctionGroupProps } from './function-group';
import { ServiceFunction } from './service-function';

/** Properties of {@link QueueConsumers}: the queue consumers; the consumed queues are added to the data. */
export interface QueueConsumersProps extends FunctionGroupProps<QueueConsumerDefinition> {
  /** Accounts allowed to send to the queues (the media pipeline's), by the queues' resource policy. */
  readonly producerAccounts: readonly string[];
}

/** A consumed queue, its dead-letter queue and its consumer. */
export interface QueueConsumer {
  readonly definition: QueueConsumerDefinition;
  readonly queue: sqs.Queue;
  readonly deadLetterQueue: sqs.Queue;
  readonly handler: ServiceFunction;
  /** What feeds the consumer from its queue: paused and resumed around a layout change (docs/operations.md). */
  readonly mapping: lambda.EventSourceMapping;
}

/**
 * One standard SQS queue per queue consumer of `functions/deployed-functions.ts`, encrypted and
 * reachable over TLS only, with a dead-letter queue after the consumer's receive count, and the
 * consumer itself: built like every function, granted exactly its definition's operations, and
 * fed by an event source mapping that reports partial batch failures, so one bad message never
 * makes its batch's good ones run again
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html#services-sqs-batchfailurereporting),
 * and that never runs more than the definition's `maxConcurrency` invocations at once.
 */
export class QueueConsumers extends Construct {
  public readonly consumers: readonly QueueConsumer[];

  public constructor(scope: Construct, id: string, props: QueueConsumersProps) {
    super(scope, id);
    this.consumers = props.definitions.map((definition) => this.consumer(definition, props));
  }

  private consumer(definition: QueueConsumerDefinition, props: QueueConsumersProps): QueueConsumer {
    const deadLetterQueue = lastStopQueue(
      this,
      `${definition.queue}DeadLetters`,
      `The dead-letter queue of ${definition.queue}: nothing consumes it; an operator reads it and moves its messages back (aws sqs start-message-move-task), and the depth alarm reports every message.`,
    );
    const queue = new sqs.Queue(this, definition.queue, {
      // SQS-managed keys: a producer in another account needs no grant on a KMS key to send.
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // SQS's longest, so an outage of the consumer loses nothing.
      retentionPeriod: LONGEST_RETENTION,
      // AWS: at least six times the function's timeout, so a batch being retried is not received twice
      // (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html#services-sqs-queueconfig).
      visibilityTimeout: Duration.seconds(definition.timeoutSeconds * 6),
      deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: definition.maxReceiveCount },
    });
    for (const account of props.producerAccounts) {
      queue.addToResourcePolicy(
        new iam.PolicyStatement({ sid: `SendFrom${account}`, principals: [new iam.AccountPrincipal(account)], actions: ['sqs:SendMessage'], resources: [queue.queueArn] }),
      );
    }
    const handler = new ServiceFunction(this, definition.name, {
      handlerModule: definition.handler,
      description: definition.description,
      image: false,
      invokedBy: 'queue',
      timeout: Duration.seconds(definition.timeoutSeconds),
      environment: props.environment,
      logRetentionDays: props.logRetentionDays,
    });
    // The mapping is made directly, not with SqsEventSource, which would grant its own set of queue
    // actions beside the definition's: the definition's grants are the function's only permissions.
    grantFunctionData(handler.role, definition.grants, { ...props.data, queues: new Map([[definition.queue, queue]]) });
    const mapping = new lambda.EventSourceMapping(this, `${definition.name}Events`, {
      target: handler.function,
      eventSourceArn: queue.queueArn,
      batchSize: definition.batchSize,
      maxBatchingWindow: Duration.seconds(definition.maxBatchingWindowSeconds),
      reportBatchItemFailures: true,
      // The cap sits on the mapping, not on the function as reserved concurrency (the only cap
      // checkov's CKV_AWS_115 reads, so it still reports this function): reserved concurrency would
      // withhold that capacity from every other function of the account, and the mapping does not
      // account for it, so it would read more messages than the function may take and be throttled.
      // AWS: to limit an SQS source's invocations, use maximum concurrency instead of reserved
      // concurrency (https://repost.aws/knowledge-center/lambda-sqs-scaling,
      // https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html,
      // https://docs.aws.amazon.com/lambda/latest/dg/configuration-concurrency.html).
      maxConcurrency: definition.maxConcurrency,
    });
    acknowledgeFindings(mapping, {
      // AWS: on-failure destinations are for Kinesis, DynamoDB and Kafka sources; an SQS source's failures go to
      // the queue's redrive policy (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-properties-lambda-eventsourcemapping-onfailure.html).
      'Serverless-LambdaEventSourceMappingDestination': `A failed message of ${definition.queue} goes to its dead-letter queue after ${definition.maxReceiveCount} receives (the queue's redrive policy), the only failure destination an SQS source has.`,
    });
    return { definition, queue, deadLetterQueue, handler, mapping };
  }

  /**
   * Stack outputs: each queue's URL and ARN, for the producer's configuration and its IAM policy,
   * and its mapping's id, which the upgrade runbook pauses and resumes
   * (`aws lambda update-event-source-mapping --uuid … --no-enabled`).
   */
  public addOutputs(scope: Construct): void {
    for (const { definition, queue, mapping } of this.consumers) {
      new CfnOutput(scope, `${definition.queue}QueueUrl`, { value: queue.queueUrl, description: `URL of the ${definition.queue} queue: where the media pipeline sends its messages.` });
      new CfnOutput(scope, `${definition.queue}QueueArn`, { value: queue.queueArn, description: `ARN of the ${definition.queue} queue, for the producer's sqs:SendMessage permission.` });
      new CfnOutput(scope, `${definition.queue}MappingId`, {
        value: mapping.eventSourceMappingId,
        description: `Id of the mapping that feeds ${definition.name} from the ${definition.queue} queue: disable it to pause the feed (the queue keeps the messages).`,
      });
    }
  }
}
