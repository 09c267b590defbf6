import { RemovalPolicy } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/**
 * A log group of the service (a function's logs, the API access log): kept for the configured
 * number of days and deleted with the stack, unlike the data, which is retained.
 */
export function serviceLogGroup(scope: Construct, id: string, retentionDays: number): logs.LogGroup {
  return new logs.LogGroup(scope, id, {
    // readStackSettings accepts only the values of RetentionDays.
    retention: retentionDays as logs.RetentionDays,
    removalPolicy: RemovalPolicy.DESTROY,
  });
}
