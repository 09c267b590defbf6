import { Duration } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { UPSTREAM_CODES } from '../../functions/shared/http/problem-catalog';
import { METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME } from '../../functions/shared/observability/metric-catalog';
import { acknowledgeFindings } from '../nag-acknowledgements';
import type { ServiceFunction } from './service-function';
import type { LiveApi } from './live-api';
import { streamLag, type StreamConsumer } from './stream-consumers';
import { createAlarmTopic } from './alarm-topic';
import { deniedUploadReads, UPLOAD_READS_DENIED_THRESHOLD } from './upload-read-alarm';

/** CloudWatch namespace of the service's own metrics (Powertools metrics and the log metric filters). */
export { METRICS_NAMESPACE };

/** Alarm thresholds, over a five-minute period unless they say otherwise. */
export const ALARM_THRESHOLDS = {
  /** 5XX answers of the API, image source failures aside: a few can be a deployment blip, five is a problem. */
  apiServerErrors: 5,
  /** 429 answers: the stage limits are reached and real clients are being turned away. */
  apiThrottled: 10,
  /** Errors (uncaught exceptions, timeouts) of any one function. */
  functionErrors: 1,
  /** Messages waiting in a dead-letter queue: each is a failure nobody has looked at yet. */
  deadLetters: 1,
  /**
   * How far (ms) a stream consumer may trail its stream, as the worst of each minute, five minutes
   * running: it normally trails by its batching window and a batch's run, seconds. A minute's lag
   * that lasts means it falls behind the writes or retries a failing batch, which holds up its
   * shard: totals trail the log by as much, and the stream drops records after 24 hours.
   */
  streamLagMs: 60_000,
  /** Minutes in a row over `streamLagMs` before the lag alarm fires: a burst of writes or one retried batch passes; five minutes is a trend. */
  streamLagMinutes: 5,
  /** Messages of the live media log whose route function failed or timed out (its `IntegrationError` and `ExecutionError`). */
  liveErrors: 5,
} as const;

/** Properties of {@link Observability}. */
export interface ObservabilityProps {
  readonly restApi: apigateway.RestApi;
  readonly accessLogs: logs.ILogGroup;
  /** Every function of the stack, keyed by a readable name for the alarm. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** The dead-letter queues, keyed by a readable name for the alarm. */
  readonly deadLetterQueues: ReadonlyMap<string, sqs.IQueue>;
  /** The stream consumers: their lag and the batches they gave up on. */
  readonly streamConsumers: readonly StreamConsumer[];
  /** The live media log's WebSocket API: its integration failures. */
  readonly live?: LiveApi;
  /** Address notified of alarms; without it the alarms only show in the console. */
  readonly alarmEmail?: string;
}

const PERIOD = Duration.minutes(5);

/** A maximum record age as an operator reads it: `1 h`, `1 min`. */
function duration(seconds: number): string {
  return seconds >= 3600 ? `${seconds / 3600} h` : seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`;
}

/**
 * The API's 5XX answers less those an avatar upload gave because the image source failed or was
 * too slow (502 / 504 with an upstream code, which every upload also counts in AvatarUploadFailures
 * by that code). The caller names the source: anyone could otherwise page whoever is on call by
 * posting addresses of a server that answers 500 or never answers. Those failures still show on
 * the dashboard, by reason; an egress outage shows there as every upload failing.
 */
function serviceServerErrors(restApi: apigateway.RestApi): cloudwatch.MathExpression {
  // The codes are valid query ids as they are: lower case letters and underscores.
  const sourceFailures = Object.fromEntries(
    UPSTREAM_CODES.map((code) => [
      code,
      new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'AvatarUploadFailures',
        dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME, reason: code },
        statistic: 'Sum',
        period: PERIOD,
      }),
    ]),
  );
  // FILL: a period without uploads (or without 5XX) has no data point, which counts as none.
  return new cloudwatch.MathExpression({
    expression: ['FILL(serverErrors, 0)', ...UPSTREAM_CODES.map((code) => `FILL(${code}, 0)`)].join(' - '),
    usingMetrics: { serverErrors: restApi.metricServerError({ period: PERIOD, statistic: 'Sum' }), ...sourceFailures },
    label: '5XX answers other than image source failures',
    period: PERIOD,
  });
}

/**
 * What operators watch: alarms on the API's 5XX answers and throttling, on every function's
 * errors, on the depth of every dead-letter queue, and on each stream consumer's lag, failure
 * queue and skipped records, optionally notifying an email address through an encrypted SNS topic.
 */
export class Observability extends Construct {
  public readonly alarms: cloudwatch.Alarm[] = [];
  public readonly topic?: sns.Topic;

  public constructor(scope: Construct, id: string, props: ObservabilityProps) {
    super(scope, id);
    this.addApiAlarms(props.restApi, props.accessLogs);
    this.addUploadReadAlarm();
    for (const [name, fn] of props.functions) this.addFunctionAlarm(name, fn);
    for (const [name, queue] of props.deadLetterQueues) {
      this.addQueueDepthAlarm(`${name}DeadLetters`, queue, `Failed ${name} wait in their dead-letter queue: see the function's log group, then inspect or purge the queue.`);
    }
    for (const consumer of props.streamConsumers) this.addStreamConsumerAlarms(consumer);
    if (props.live) this.addLiveAlarm(props.live);
    if (props.alarmEmail) {
      this.topic = createAlarmTopic(this, props.alarmEmail);
      const action = new actions.SnsAction(this.topic);
      for (const alarm of this.alarms) alarm.addAlarmAction(action);
    }
  }

  private addApiAlarms(restApi: apigateway.RestApi, accessLogs: logs.ILogGroup): void {
    this.alarms.push(
      serviceServerErrors(restApi).createAlarm(this, 'ApiServerErrors', {
        alarmDescription:
          'The API answered 5XX more often than usual, image sources that failed or were too slow for an avatar upload not counted (AvatarUploadFailures): see the functions\' alarms and logs.',
        threshold: ALARM_THRESHOLDS.apiServerErrors,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    // API Gateway publishes no throttling metric of its own; the access log knows every 429.
    const throttled = new logs.MetricFilter(this, 'ThrottledRequests', {
      logGroup: accessLogs,
      filterPattern: logs.FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: METRICS_NAMESPACE,
      metricName: 'ThrottledRequests',
      metricValue: '1',
      defaultValue: 0,
    });
    this.alarms.push(
      throttled.metric({ period: PERIOD, statistic: 'Sum' }).createAlarm(this, 'ApiThrottled', {
        alarmDescription:
          'Clients are being throttled (429): by the stage (raise apiRateLimit/apiBurstLimit) or by the per-client limits (wafResponseCode WAF_BLOCK in the access log: find the caller).',
        threshold: ALARM_THRESHOLDS.apiThrottled,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private addUploadReadAlarm(): void {
    this.alarms.push(
      deniedUploadReads().createAlarm(this, 'UploadReadsDenied', {
        alarmDescription:
          'S3 refused to read uploaded files (403) and read none: a policy no longer lets the upload routes read their prefix, and every avatar from a file fails. The functions\' "Upload read denied by S3" log lines carry S3\'s message, which names the policy that denied.',
        threshold: UPLOAD_READS_DENIED_THRESHOLD,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private addFunctionAlarm(name: string, fn: ServiceFunction): void {
    this.alarms.push(
      fn.function.metricErrors({ period: PERIOD, statistic: 'Sum' }).createAlarm(this, `${name}Errors`, {
        alarmDescription: `The ${name} function failed (uncaught error or timeout): see its log group.`,
        threshold: ALARM_THRESHOLDS.functionErrors,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private addStreamConsumerAlarms({ definition, handler, failureQueue }: StreamConsumer): void {
    this.alarms.push(
      streamLag({ handler }).createAlarm(this, `${definition.name}Lag`, {
        alarmDescription: `${definition.name} trails its stream by more than ${ALARM_THRESHOLDS.streamLagMs / 1000} s: it falls behind the writes or retries a failing batch (see its Errors and log group). A batch still failing when its records are ${duration(definition.maximumRecordAgeSeconds)} old is given up on, and its failure queue then names it.`,
        threshold: ALARM_THRESHOLDS.streamLagMs,
        evaluationPeriods: ALARM_THRESHOLDS.streamLagMinutes,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        // No invocations, no lag to report: an idle stream is not a late one.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
    this.addQueueDepthAlarm(
      `${definition.failureQueue}Messages`,
      failureQueue,
      `${definition.name} gave up on a batch of its stream (retried until its records were ${duration(definition.maximumRecordAgeSeconds)} old) or skipped a record it could not read. Each message names the shard and sequence numbers; see the function's log group. ${definition.failureAdvice ?? 'What it keeps misses those changes: run media-log recount.'}`,
    );
    if (definition.skippedRecordsMetric !== undefined) {
      const skipped = new cloudwatch.Metric({ namespace: METRICS_NAMESPACE, metricName: definition.skippedRecordsMetric, dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME }, period: PERIOD, statistic: 'Sum' });
      this.alarms.push(
        skipped.createAlarm(this, `${definition.name}Skipped`, {
          alarmDescription: `${definition.name} skipped a stream record it could not read (a missing or malformed field): its log group names the key and the reason, its failure queue describes it; run media-log recount once the cause is fixed.`,
          threshold: 1,
          evaluationPeriods: 1,
          comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
        }),
      );
    }
  }

  private addLiveAlarm(live: LiveApi): void {
    const failed = new cloudwatch.MathExpression({
      expression: 'FILL(integration, 0) + FILL(execution, 0)',
      usingMetrics: { integration: live.metric('IntegrationError'), execution: live.metric('ExecutionError') },
      label: 'live media log messages whose route failed',
      period: PERIOD,
    });
    this.alarms.push(
      failed.createAlarm(this, 'LiveRouteErrors', {
        alarmDescription: "The live media log's WebSocket routes failed (an error or a timeout of their function, or of API Gateway): see the live functions' alarms and logs, and the stage's access log (errorMessage).",
        threshold: ALARM_THRESHOLDS.liveErrors,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private addQueueDepthAlarm(id: string, queue: sqs.IQueue, description: string): void {
    // The maximum over the period: one message that stays is enough, however briefly it was sampled.
    this.alarms.push(
      queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }).createAlarm(this, id, {
        alarmDescription: description,
        threshold: ALARM_THRESHOLDS.deadLetters,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}
