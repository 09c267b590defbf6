import { METRICS_NAMESPACE, SERVICE_NAME } from '../../functions/shared/observability/metric-catalog';
import { UPLOAD_READ_PERIOD, UPLOAD_READS_DENIED_THRESHOLD } from '../../lib/constructs/upload-read-alarm';
import { alarmQueries, alarmValue, type AlarmQuery } from './alarm-math';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * The alarm on uploaded files S3 refuses to read: S3 answers a missing file 403 to the upload
 * routes (they may not list), so a few denials are clients' stale sources; denials while no read
 * succeeds are a policy that broke uploads from a file for everyone.
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const alarm = resources[logicalIdAt(stack, ['Observability', 'UploadReadsDenied'])]?.Properties as Record<string, any>;

const queries: AlarmQuery[] = alarmQueries(alarm);

/** The id of the query of UploadReads with `outcome`. */
function queryOf(outcome: string): AlarmQuery | undefined {
  return queries.find(({ MetricStat }) => MetricStat?.Metric.MetricName === 'UploadReads' && MetricStat.Metric.Dimensions?.some(({ Name, Value }) => Name === 'outcome' && Value === outcome));
}

describe('the alarm on denied upload reads', () => {
  it('reads UploadReads, read and denied, of the service, summed over an hour', () => {
    for (const outcome of ['read', 'denied']) {
      expect(queryOf(outcome)?.MetricStat).toMatchObject({
        Metric: { Namespace: METRICS_NAMESPACE, Dimensions: expect.arrayContaining([{ Name: 'service', Value: SERVICE_NAME }]) },
        Period: UPLOAD_READ_PERIOD.toSeconds(),
        Stat: 'Sum',
      });
    }
    expect(alarm).toMatchObject({ Threshold: UPLOAD_READS_DENIED_THRESHOLD, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
  });

  it.each([
    ['fires when reads are denied and none succeeds (a policy regression)', { denied: 3 }, true],
    ['stays quiet on denials beside reads that succeed (clients\' stale sources)', { denied: 40, read: 5 }, false],
    ['stays quiet on fewer denials than its threshold', { denied: UPLOAD_READS_DENIED_THRESHOLD - 1 }, false],
    ['stays quiet in an hour without uploads from a file', {}, false],
  ])('%s', (_case, sums: Record<string, number>, fires) => {
    const byId = Object.fromEntries(Object.entries(sums).map(([outcome, sum]) => [queryOf(outcome)?.Id ?? outcome, sum]));

    expect(alarmValue(queries, byId) >= UPLOAD_READS_DENIED_THRESHOLD).toBe(fires);
  });
});
