import { Metrics } from '@aws-lambda-powertools/metrics';
import './invoke-store';
import { METRICS, type DimensionsOf, type FeedOutcome, type MetricName } from './metric-catalog';
import { keepOffStdout } from './telemetry-output';

/**
 * The business metrics of the catalog (metric-catalog.ts), written as CloudWatch embedded metric
 * format lines by Powertools Metrics: namespace from `POWERTOOLS_METRICS_NAMESPACE`, the `service`
 * dimension from `POWERTOOLS_SERVICE_NAME`, both set by the stack (and by the local environment).
 * `POWERTOOLS_METRICS_DISABLED=true` turns them off; local runs default to that, so that a request
 * costs no metric line unless one asks for them.
 *
 * A metric without dimensions is stored and written once per invocation, with the others, by
 * {@link flushMetrics} (the invocation's middleware calls it). A metric with dimensions (a reason,
 * an outcome) is written at once on a line of its own: embedded metric format gives every metric
 * of a line the same dimensions.
 */

/** The process-wide metrics object; made at load time, outside any invocation, as Powertools expects. */
const metrics = keepOffStdout(new Metrics());

/** Record `value` of metric `name`, with the dimensions the catalog gives it. */
export function recordMetric<N extends MetricName>(name: N, value: number, dimensions: DimensionsOf<N>): void {
  const { unit } = METRICS[name];
  const entries = Object.entries(dimensions) as [string, string][];
  if (entries.length === 0) {
    metrics.addMetric(name, unit, value);
    return;
  }
  const single = keepOffStdout(metrics.singleMetric());
  for (const [dimension, dimensionValue] of entries) single.addDimension(dimension, dimensionValue);
  single.addMetric(name, unit, value);
}

/** Write the metrics stored during this invocation, if any (none: no line, and no warning). */
export function flushMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

/** An avatar uploaded, stored and enabled. */
export function recordAvatarUpload(): void {
  recordMetric('AvatarUploads', 1, {});
}

/** An upload that failed after its input was accepted; `reason` is the code of the problem answered. */
export function recordAvatarUploadFailure(reason: string): void {
  recordMetric('AvatarUploadFailures', 1, { reason });
}

/** A source image fetched: its size and how long the fetch took. */
export function recordAvatarFetch(bytes: number, milliseconds: number): void {
  recordMetric('AvatarFetchBytes', bytes, {});
  recordMetric('AvatarFetchTime', Math.round(milliseconds), {});
}

/** What one media log listing read from DynamoDB, and how many entries it returned. */
export function recordMediaLogReads(itemsRead: number, itemsReturned: number): void {
  recordMetric('MediaLogItemsRead', itemsRead, {});
  recordMetric('MediaLogItemsReturned', itemsReturned, {});
}

/** `count` media pipeline feed messages that came to `outcome`. */
export function recordFeedMessages(outcome: FeedOutcome, count = 1): void {
  recordMetric('FeedMessages', count, { outcome });
}

/** A token the authorizer refused, or a request it could not decide; `reason` from its fixed vocabulary. */
export function recordAuthorizerDenial(reason: string): void {
  recordMetric('AuthorizerDenials', 1, { reason });
}
