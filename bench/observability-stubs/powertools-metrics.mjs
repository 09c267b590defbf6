/**
 * Stands in for `@aws-lambda-powertools/metrics` in the bundles that bench/observability-cost.ts
 * builds without metrics: the calls functions/shared/observability/metrics.ts makes, doing nothing.
 */
export class Metrics {
  addMetric() {}

  addDimension() {}

  singleMetric() {
    return new Metrics();
  }

  hasStoredMetrics() {
    return false;
  }

  publishStoredMetrics() {}
}
