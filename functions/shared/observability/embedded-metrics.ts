import { defineConfig } from '../config/define-config';
import { METRICS, METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME, type MetricName } from './metric-catalog';
import { writeTelemetryLine } from './telemetry-output';

/**
 * CloudWatch embedded metric format, written for the metric catalog: one JSON line per flush whose
 * `_aws` member tells CloudWatch Logs which fields are metrics, in which namespace, unit and
 * dimensions (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html).
 *
 * Written here rather than with Powertools Metrics: the catalog is fixed and typed (names, units and
 * dimensions are checked when the code compiles, not validated on every record), no invocation
 * records more than a handful of metrics, and the package cost every function about 10 KB and
 * 2–3 ms of cold start (`npm run bench -- --only bundles,cold-start`). The lines are the same:
 * the Powertools variables still name the namespace and service and switch the metrics off.
 */

/** Where the metric lines go and whether they are written at all. */
interface MetricsSettings {
  readonly namespace: string;
  readonly service: string;
  readonly enabled: boolean;
}

/**
 * The Powertools variables, read once: `POWERTOOLS_METRICS_NAMESPACE` and `POWERTOOLS_SERVICE_NAME`
 * (the stack sets both to the catalog's values), `POWERTOOLS_METRICS_DISABLED` (`true` or `1` turns
 * the lines off; unset, `POWERTOOLS_DEV=true` does, as in Powertools).
 */
export const metricsSettings = /* @__PURE__ */ defineConfig('metrics', (env): MetricsSettings => {
  const flag = (name: string): boolean | undefined => {
    const value = env.optional(name)?.toLowerCase();
    return value === undefined ? undefined : value === 'true' || value === '1';
  };
  return {
    namespace: env.optional('POWERTOOLS_METRICS_NAMESPACE') ?? METRICS_NAMESPACE,
    service: env.optional('POWERTOOLS_SERVICE_NAME') ?? SERVICE_NAME,
    enabled: !(flag('POWERTOOLS_METRICS_DISABLED') ?? flag('POWERTOOLS_DEV') ?? false),
  };
});

/** Values of each metric, in the order recorded: a metric recorded twice is written as an array. */
export type MetricValues = ReadonlyMap<MetricName, readonly number[]>;

/**
 * Write `values` as one embedded metric format line, all with the same `dimensions` besides
 * `service` (the format gives every metric of a line the same dimensions); nothing when metrics
 * are off or there is nothing to write.
 */
export function writeMetricLine(values: MetricValues, dimensions: Readonly<Record<string, string>> = {}): void {
  const settings = metricsSettings();
  if (!settings.enabled || values.size === 0) return;
  const line: Record<string, unknown> = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        {
          Namespace: settings.namespace,
          Dimensions: [[SERVICE_DIMENSION, ...Object.keys(dimensions)]],
          Metrics: [...values.keys()].map((name) => ({ Name: name, Unit: METRICS[name].unit })),
        },
      ],
    },
    [SERVICE_DIMENSION]: settings.service,
    ...dimensions,
  };
  for (const [name, recorded] of values) line[name] = recorded.length === 1 ? recorded[0] : [...recorded];
  writeTelemetryLine(JSON.stringify(line));
}
