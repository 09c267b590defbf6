import { CfnOutput, Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { StreamConsumerDefinition } from '../../functions/shared/deployment/function-definitions';
import { grantFunctionData } from '../data-grants';
import { lastStopQueue } from '../last-stop-queue';
import type { DeployedTable } from './data-tables';
import type { FunctionGroupProps } from './function-group';
import { ServiceFunction } from './service-function';

/** Properties of {@link StreamConsumers}: the stream consumers; the consumed tables are among the data's tables. */
export type StreamConsumersProps = FunctionGroupProps<StreamConsumerDefinition>;

/** A consumed table stream, its consumer and the queue of the batches the consumer gave up on. */
export interface StreamConsumer {
  readonly definition: StreamConsumerDefinition;
  readonly table: dynamodb.Table;
  readonly failureQueue: sqs.Queue;
  readonly handler: ServiceFunction;
  readonly mapping: lambda.EventSourceMapping;
}

/**
 * What an event source mapping reads a DynamoDB stream with, on the function's role
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/iam-policy-example-lamda-process-dynamodb-streams.html).
 * The function's code never calls these: the mapping does.
 */
export const STREAM_READ_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator', 'dynamodb:ListStreams'] as const;

/**
 * How far behind its stream a consumer is: the age of the newest record of each batch it got
 * (Lambda's `IteratorAge`, milliseconds, https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html),
 * the worst of each minute: a minute is the alarm's resolution and a lag spike is what it is for.
 */
export function streamLag(consumer: Pick<StreamConsumer, 'handler'>): cloudwatch.Metric {
  return consumer.handler.function.metric('IteratorAge', { statistic: 'Maximum', period: Duration.minutes(1) });
}

/**
 * The event filter that lets through only records whose partition key starts with one of the
 * definition's prefixes and, when it names events, of those events.
 */
function recordFilter(deployed: DeployedTable, { keyPrefixes, eventNames }: StreamConsumerDefinition): Record<string, unknown> {
  const { partitionKey, id } = deployed.definition;
  if (partitionKey.type !== 'S' || keyPrefixes.length === 0) throw new Error(`A stream filter on table ${id} needs a text partition key and at least one prefix.`);
  // Values in one array are alternatives, fields are all required (https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html).
  return lambda.FilterCriteria.filter({
    ...(eventNames === undefined ? {} : { eventName: [...eventNames] }),
    dynamodb: { Keys: { [partitionKey.name]: { S: keyPrefixes.flatMap((prefix) => lambda.FilterRule.beginsWith(prefix)) } } },
  });
}

/**
 * One consumer per stream consumer of `functions/deployed-functions.ts`: the function, built like
 * every function and granted exactly its definition's operations plus the reads of that one
 * table's stream, and the event source mapping that feeds it the stream's records, filtered to the
 * definition's key prefixes, one batch per shard at a time in the shard's order. A batch that
 * fails is retried, bisected, until it succeeds or its records reach the definition's maximum age;
 * Lambda then sends a description of it to the consumer's failure queue
 * (https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html). The observability
 * construct alarms on the consumer's lag and on the queue's depth.
 */
export class StreamConsumers extends Construct {
  public readonly consumers: readonly StreamConsumer[];

  public constructor(scope: Construct, id: string, props: StreamConsumersProps) {
    super(scope, id);
    this.consumers = props.definitions.map((definition) => this.consumer(definition, props));
  }

  private consumer(definition: StreamConsumerDefinition, props: StreamConsumersProps): StreamConsumer {
    const deployed = props.data.tables.byId(definition.table);
    const { table } = deployed;
    if (!table.tableStreamArn) throw new Error(`${definition.name} consumes the stream of table ${definition.table}, which has none: give its definition a stream.`);
    const failureQueue = lastStopQueue(
      this,
      definition.failureQueue,
      `The on-failure destination of ${definition.name}, the last stop of a batch it gave up on: nothing consumes it, an operator reads what it holds, and the depth alarm reports every message.`,
    );
    const handler = new ServiceFunction(this, definition.name, {
      handlerModule: definition.handler,
      description: definition.description,
      image: false,
      invokedBy: 'stream',
      timeout: Duration.seconds(definition.timeoutSeconds),
      environment: props.environment,
      logRetentionDays: props.logRetentionDays,
    });
    grantFunctionData(handler.role, definition.grants, props.data);
    // The consumer reports the records it skips to the same queue (sqs:SendMessage is granted below for the mapping).
    if (definition.failureQueueUrlEnv !== undefined) handler.function.addEnvironment(definition.failureQueueUrlEnv, failureQueue.queueUrl);
    // The mapping is made directly, not with DynamoEventSource and SqsDlq, which grant ListStreams on
    // "*" and queue actions beside SendMessage: the mapping needs the stream's reads on this stream
    // and, for the failure queue, sqs:SendMessage alone (services-dynamodb-errors.html above).
    iam.Grant.addToPrincipal({ grantee: handler.role, actions: [...STREAM_READ_ACTIONS], resourceArns: [table.tableStreamArn] });
    iam.Grant.addToPrincipal({ grantee: handler.role, actions: ['sqs:SendMessage'], resourceArns: [failureQueue.queueArn] });
    const mapping = new lambda.EventSourceMapping(this, `${definition.name}Records`, {
      target: handler.function,
      eventSourceArn: table.tableStreamArn,
      // From the oldest record the stream keeps: a consumer deployed after writes began counts them too.
      startingPosition: lambda.StartingPosition.TRIM_HORIZON,
      batchSize: definition.batchSize,
      maxBatchingWindow: Duration.seconds(definition.maxBatchingWindowSeconds),
      // With a tumbling window Lambda names the batch's shard in the event
      // (https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-windows.html).
      tumblingWindow: Duration.seconds(definition.tumblingWindowSeconds),
      // One batch per shard at a time: the consumer relies on receiving a shard's records in order.
      parallelizationFactor: 1,
      bisectBatchOnError: true,
      // Retry a failing batch until its records are older than the definition's maximum record age,
      // then describe it in the failure queue and go on: a stuck shard stalls the counters for at
      // most that long, and the recount repairs what it skipped. A record the consumer cannot read
      // never fails its batch (the consumer logs, counts and skips it), so retries only serve
      // transient failures (throttling, an outage).
      retryAttempts: -1,
      maxRecordAge: Duration.seconds(definition.maximumRecordAgeSeconds),
      onFailure: { bind: () => ({ destination: failureQueue.queueArn }) },
      filters: [recordFilter(deployed, definition)],
    });
    return { definition, table, failureQueue, handler, mapping };
  }

  /** Stack outputs: each failure queue's URL, for the operator who reads what a consumer gave up on. */
  public addOutputs(scope: Construct): void {
    for (const { definition, failureQueue } of this.consumers) {
      new CfnOutput(scope, `${definition.failureQueue}QueueUrl`, {
        value: failureQueue.queueUrl,
        description: `URL of the ${definition.failureQueue} queue: the stream batches ${definition.name} gave up on (shard and sequence numbers), for an operator to read.`,
      });
    }
  }
}
