import { Tracer } from '@aws-lambda-powertools/tracer';
import './invoke-store';

/**
 * X-Ray tracing of the AWS SDK calls, with Powertools Tracer: every DynamoDB and S3 request of a
 * function becomes a subsegment of its invocation's trace (the stack turns active tracing on).
 *
 * Powertools turns tracing off outside a Lambda execution environment (no `AWS_EXECUTION_ENV`), and
 * `POWERTOOLS_TRACE_ENABLED=false` turns it off anywhere: then a client is returned untouched and
 * nothing is sent to an X-Ray daemon. Outgoing HTTP calls are not captured: the only ones the
 * functions make are the avatar source fetch, whose requests must go out exactly as built (no
 * `X-Amzn-Trace-Id` header for a third-party host), and the issuer's key set, fetched rarely.
 */
const tracer = new Tracer({ captureHTTPsRequests: false });

/** `client`, its requests traced as X-Ray subsegments when tracing is on. */
export function traced<C extends object>(client: C): C {
  return tracer.captureAWSv3Client(client);
}

/** Whether this process traces (a Lambda function with tracing not switched off). */
export function tracingEnabled(): boolean {
  return tracer.isTracingEnabled();
}
