import './invoke-store';
import { writeMetricLine } from './embedded-metrics';
import { METRICS, type DimensionsOf, type FeedOutcome, type MetricName, type UploadReadOutcome } from './metric-catalog';

/**
 * The business metrics of the catalog (metric-catalog.ts), written as CloudWatch embedded metric
 * format lines (embedded-metrics.ts): namespace from `POWERTOOLS_METRICS_NAMESPACE`, the `service`
 * dimension from `POWERTOOLS_SERVICE_NAME`, both set by the stack (and by the local environment).
 * `POWERTOOLS_METRICS_DISABLED=true` turns them off; local runs default to that, so that a request
 * costs no metric line unless one asks for them.
 *
 * A metric without dimensions is stored and written once per invocation, with the others, by
 * {@link flushMetrics} (the invocation's middleware calls it). A metric with dimensions (a reason,
 * an outcome) is written at once on a line of its own: embedded metric format gives every metric
 * of a line the same dimensions.
 */

/** The metrics one invocation stored, by name. */
type StoredMetrics = Map<MetricName, number[]>;

/** Where an invocation keeps its stored metrics in the runtime's InvokeStore (see invoke-store.ts). */
const STORED_METRICS_KEY = Symbol.for('frontend-api.stored-metrics');

/** The stored metrics of a process that runs one invocation at a time. */
const processMetrics: StoredMetrics = new Map();

/**
 * The current invocation's stored metrics: its own where invocations share the process (the
 * InvokeStore holds a context per invocation: Lambda Managed Instances, the local gateway), the
 * process's otherwise.
 */
function storedMetrics(): StoredMetrics {
  const store = globalThis.awslambda?.InvokeStore;
  if (store === undefined || !store.hasContext()) return processMetrics;
  let stored = store.get(STORED_METRICS_KEY) as StoredMetrics | undefined;
  if (stored === undefined) {
    stored = new Map();
    store.set(STORED_METRICS_KEY, stored);
  }
  return stored;
}

/** Record `value` of metric `name`, with the dimensions the catalog gives it. */
export function recordMetric<N extends MetricName>(name: N, value: number, dimensions: DimensionsOf<N>): void {
  if (METRICS[name].dimensions.length > 0) {
    writeMetricLine(new Map([[name, [value]]]), dimensions);
    return;
  }
  const stored = storedMetrics();
  stored.set(name, [...(stored.get(name) ?? []), value]);
}

/** Write the metrics stored during this invocation, if any (none: no line). */
export function flushMetrics(): void {
  const stored = storedMetrics();
  if (stored.size === 0) return;
  writeMetricLine(stored);
  stored.clear();
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

/** The read of an uploaded file, by what it came to. */
export function recordUploadRead(outcome: UploadReadOutcome): void {
  recordMetric('UploadReads', 1, { outcome });
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
