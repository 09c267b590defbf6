import type { Tracer } from '@aws-lambda-powertools/tracer';
import './invoke-store';

/**
 * X-Ray tracing of the AWS SDK calls, with Powertools Tracer: where tracing is on, every DynamoDB
 * and S3 request of a function becomes a subsegment of its invocation's trace.
 *
 * Whether a deployed function traces is the stack's `tracing` setting, which sets
 * `POWERTOOLS_TRACE_ENABLED` in the function's environment and, with the same value, in its bundle
 * (esbuild `define`, lib/function-bundling.ts). The Tracer is required inside the branch that
 * value decides, not imported: in a bundle built with `false` the branch is dead code and esbuild
 * leaves the X-Ray SDK out (about 120 KB, loaded at every cold start only to be switched off), and
 * a static import would keep it in every bundle. Unbundled (the local gateway, `invoke`, tests) the
 * variable is unset and nothing is traced, as Powertools would decide anyway outside a Lambda
 * execution environment: nothing is ever sent to an X-Ray daemon from there.
 *
 * Outgoing HTTP calls are not captured: the only ones the functions make are the avatar source
 * fetch, whose requests must go out exactly as built (no `X-Amzn-Trace-Id` header for a
 * third-party host), and the issuer's key set, fetched rarely.
 */
const tracer: Tracer | undefined =
  process.env.POWERTOOLS_TRACE_ENABLED === 'true' && typeof require === 'function'
    ? new (require('@aws-lambda-powertools/tracer') as typeof import('@aws-lambda-powertools/tracer')).Tracer({ captureHTTPsRequests: false })
    : undefined;

/** `client`, its requests traced as X-Ray subsegments when tracing is on. */
export function traced<C extends object>(client: C): C {
  return tracer === undefined ? client : tracer.captureAWSv3Client(client);
}

/** Whether this process traces (a Lambda function with tracing on). */
export function tracingEnabled(): boolean {
  return tracer?.isTracingEnabled() ?? false;
}
