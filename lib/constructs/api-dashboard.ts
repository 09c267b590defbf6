import { Duration, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';
import {
  METRICS,
  METRICS_NAMESPACE,
  SERVICE_DIMENSION,
  SERVICE_NAME,
  type CatalogUnit,
  type MetricName,
} from '../../functions/shared/observability/metric-catalog';
import { ALARM_THRESHOLDS } from './observability';
import type { ServiceFunction } from './service-function';
import type { LiveApi } from './live-api';
import { streamLag, type StreamConsumer } from './stream-consumers';

/** Properties of {@link ApiDashboard}. */
export interface ApiDashboardProps {
  readonly restApi: apigateway.RestApi;
  /** Every function of the stack, keyed by the name its lines and alarms use. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  /** The stream consumers, whose lag and given-up batches are drawn. */
  readonly streamConsumers: readonly StreamConsumer[];
  /** The live media log's WebSocket API: its connections, messages and errors. */
  readonly live?: LiveApi;
  /** The stack's alarms, shown with their state. */
  readonly alarms: readonly cloudwatch.IAlarm[];
}

/** The period of every graph: the alarms' period, so a graph shows what an alarm evaluates (the stream lag has its alarm's minute). */
const PERIOD = Duration.minutes(5);

/** How each unit of the catalog is summed up per period: counts added, sizes and times as percentiles. */
const STATISTICS_BY_UNIT = {
  Count: ['Sum'],
  Bytes: ['p50', 'p99'],
  Milliseconds: ['p50', 'p99'],
} as const satisfies Readonly<Record<CatalogUnit, readonly string[]>>;

const WIDE = { width: 12, height: 6 } as const;
const NARROW = { width: 8, height: 6 } as const;

/** What an operator reads first: where the dashboard's figures come from and how to follow one request. */
const INTRODUCTION = [
  '# Frontend API',
  'API Gateway and Lambda metrics, the business metrics the functions write as embedded metric format',
  `(namespace \`${METRICS_NAMESPACE}\`, dimension \`${SERVICE_DIMENSION}=${SERVICE_NAME}\`), and the alarms.`,
  'One request in the logs: its `x-amzn-RequestId` is `requestId` in the access log and `correlation_id` on every line of its functions',
  '(Logs Insights: `filter correlation_id = "<id>" or requestId = "<id>"` over the access log group and the function log groups).',
].join('\n');

/**
 * The CloudWatch dashboard of the API: its latency and answers, each function's errors, throttles
 * and duration, each stream consumer's lag and failure queue, every business metric of the catalog (metric-catalog.ts, the list the functions
 * record from), and the state of every alarm.
 */
export class ApiDashboard extends Construct {
  public readonly dashboard: cloudwatch.Dashboard;

  public constructor(scope: Construct, id: string, props: ApiDashboardProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // "All dashboards in your account are global, not region-specific"
      // (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-cloudwatch-dashboard.html):
      // one stack name may be deployed to several regions, each needs a name of its own.
      dashboardName: `${stack.stackName}-${stack.region}`,
      defaultInterval: Duration.hours(3),
      widgets: [
        [new cloudwatch.TextWidget({ markdown: INTRODUCTION, width: 24, height: 3 })],
        apiWidgets(props.restApi),
        functionWidgets(props.functions),
        streamWidgets(props.streamConsumers),
        props.live ? liveWidgets(props.live) : [],
        businessWidgets(),
        [new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24, height: 4 })],
      ].filter((row) => row.length > 0),
    });
  }
}

/** Latency percentiles and the answers by class, as API Gateway counts them for the whole API. */
function apiWidgets(restApi: apigateway.RestApi): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({
      title: 'API latency (ms)',
      left: ['p50', 'p99'].flatMap((statistic) => [
        restApi.metricLatency({ statistic, period: PERIOD, label: `latency ${statistic}` }),
        restApi.metricIntegrationLatency({ statistic, period: PERIOD, label: `integration ${statistic}` }),
      ]),
      ...WIDE,
    }),
    new cloudwatch.GraphWidget({
      title: 'API answers',
      left: [
        restApi.metricCount({ statistic: 'Sum', period: PERIOD, label: 'requests' }),
        restApi.metricClientError({ statistic: 'Sum', period: PERIOD, label: '4XX' }),
        restApi.metricServerError({ statistic: 'Sum', period: PERIOD, label: '5XX' }),
      ],
      ...WIDE,
    }),
  ];
}

/** One line per function in each of three graphs: errors, throttles and p99 duration. */
function functionWidgets(functions: ReadonlyMap<string, ServiceFunction>): cloudwatch.IWidget[] {
  const entries = [...functions];
  const graph = (title: string, metricOf: (fn: ServiceFunction, label: string) => cloudwatch.IMetric): cloudwatch.GraphWidget =>
    new cloudwatch.GraphWidget({ title, left: entries.map(([name, fn]) => metricOf(fn, name)), ...NARROW });
  return [
    graph('Function errors', (fn, label) => fn.function.metricErrors({ statistic: 'Sum', period: PERIOD, label })),
    graph('Function throttles', (fn, label) => fn.function.metricThrottles({ statistic: 'Sum', period: PERIOD, label })),
    graph('Function duration p99 (ms)', (fn, label) => fn.function.metricDuration({ statistic: 'p99', period: PERIOD, label })),
  ];
}

/**
 * Each stream consumer's lag as its alarm evaluates it (the worst of each minute, the threshold
 * drawn), and the depth of its failure queue: the batches it gave up on.
 */
function streamWidgets(consumers: readonly StreamConsumer[]): cloudwatch.IWidget[] {
  if (consumers.length === 0) return [];
  return [
    new cloudwatch.GraphWidget({
      title: 'Stream consumer lag (ms, worst of each minute)',
      left: consumers.map((consumer) => streamLag(consumer).with({ label: consumer.definition.name })),
      leftAnnotations: [{ value: ALARM_THRESHOLDS.streamLagMs, label: 'lag alarm' }],
      ...WIDE,
    }),
    new cloudwatch.GraphWidget({
      title: 'Stream batches given up (failure queue messages)',
      left: consumers.map(({ definition, failureQueue }) =>
        failureQueue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: PERIOD, label: definition.failureQueue }),
      ),
      ...WIDE,
    }),
  ];
}

/** The live media log: connections made, messages in and out (posts included), and failures, as API Gateway counts them. */
function liveWidgets(live: LiveApi): cloudwatch.IWidget[] {
  return [
    new cloudwatch.GraphWidget({ title: 'Live media log: connections and messages', left: [live.metric('ConnectCount'), live.metric('MessageCount')], ...WIDE }),
    new cloudwatch.GraphWidget({ title: 'Live media log: errors', left: ['ClientError', 'IntegrationError', 'ExecutionError'].map((name) => live.metric(name)), ...WIDE }),
  ];
}

/**
 * One graph per metric of the catalog, and the media log's items read per item returned. A metric
 * with dimensions (a reason, an outcome) is drawn by a search expression, one line per value seen:
 * the values (problem codes, refusal reasons) are not known when the stack is built
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/search-expression-syntax.html).
 */
function businessWidgets(): cloudwatch.IWidget[] {
  const names = Object.keys(METRICS) as MetricName[];
  return [
    ...names.map((name) => new cloudwatch.GraphWidget({ title: `${name} (${METRICS[name].unit})`, left: catalogMetrics(name), ...NARROW })),
    new cloudwatch.GraphWidget({
      title: 'Media log items read per item returned',
      left: [
        new cloudwatch.MathExpression({
          expression: 'read / returned',
          usingMetrics: { read: catalogMetric('MediaLogItemsRead', 'Sum'), returned: catalogMetric('MediaLogItemsReturned', 'Sum') },
          period: PERIOD,
          label: 'items read per item returned',
        }),
      ],
      ...NARROW,
    }),
  ];
}

/** The lines of a catalog metric: one per statistic of its unit, and per dimension value when it has dimensions. */
function catalogMetrics(name: MetricName): cloudwatch.IMetric[] {
  const { unit, dimensions } = METRICS[name];
  return STATISTICS_BY_UNIT[unit].map((statistic) => {
    if (dimensions.length === 0) return catalogMetric(name, statistic);
    const schema = [METRICS_NAMESPACE, SERVICE_DIMENSION, ...dimensions].join(',');
    return new cloudwatch.SearchExpression({
      expression: `SEARCH('{${schema}} MetricName="${name}" ${SERVICE_DIMENSION}="${SERVICE_NAME}"', '${statistic}', ${PERIOD.toSeconds()})`,
      // No label of its own: each line is named by its metric and dimension value.
      label: '',
      period: PERIOD,
    });
  });
}

/** A catalog metric without dimensions besides the service, as the functions write it. */
function catalogMetric(name: MetricName, statistic: string): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME },
    statistic,
    period: PERIOD,
    label: `${name} ${statistic}`,
  });
}
