import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME, type UploadReadOutcome } from '../../functions/shared/observability/metric-catalog';

/**
 * The alarm on uploaded files that S3 refuses to read. The upload routes may not list the bucket,
 * so S3 answers their read of a missing file 403 (counted as UploadReads `denied`), the same answer
 * every read gets once a policy regression denies GetObject: one denial is a client's stale
 * source, denials while no read succeeds are uploads broken for everyone.
 */

/** The period the alarm sums over: uploads from a file are rare, a policy regression lasts. */
export const UPLOAD_READ_PERIOD = Duration.hours(1);

/** Denied reads in a period without one successful read that raise the alarm. */
export const UPLOAD_READS_DENIED_THRESHOLD = 3;

function uploadReads(outcome: UploadReadOutcome): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: 'UploadReads',
    dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME, outcome },
    statistic: 'Sum',
    period: UPLOAD_READ_PERIOD,
  });
}

/**
 * The denied reads of a period in which no read succeeded, 0 otherwise
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html: IF,
 * comparison operators, FILL for a period without data points).
 */
export function deniedUploadReads(): cloudwatch.MathExpression {
  return new cloudwatch.MathExpression({
    expression: 'IF(FILL(reads, 0) == 0, FILL(denied, 0), 0)',
    usingMetrics: { reads: uploadReads('read'), denied: uploadReads('denied') },
    label: 'Uploaded files S3 refused to read while none was read',
    period: UPLOAD_READ_PERIOD,
  });
}
