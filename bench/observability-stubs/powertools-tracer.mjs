/**
 * Stands in for `@aws-lambda-powertools/tracer` in the bundles that bench/observability-cost.ts
 * builds without tracing: the calls functions/shared/observability/tracing.ts makes, tracing nothing.
 */
export class Tracer {
  captureAWSv3Client(client) {
    return client;
  }

  isTracingEnabled() {
    return false;
  }
}
