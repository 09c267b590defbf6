import { METRICS_NAMESPACE, SERVICE_NAME } from '../../functions/shared/observability/metric-catalog';
import { UPSTREAM_CODES } from '../../functions/shared/http/problem-catalog';
import { ALARM_THRESHOLDS } from '../../lib/constructs/observability';
import { alarmQueries, alarmValue, type AlarmQuery } from './alarm-math';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * The API's 5XX alarm pages whoever is on call, so it counts only what the service can fix: a
 * 502 or 504 an avatar upload gave because the image source the caller named failed or was too
 * slow is left out (the uploads count those in AvatarUploadFailures, by reason).
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const alarm = resources[logicalIdAt(stack, ['Observability', 'ApiServerErrors'])]?.Properties as Record<string, any>;

const queries: AlarmQuery[] = alarmQueries(alarm);

/** The id of the alarm's query of `metricName` in `namespace`, with `reason` when given. */
function queryId(namespace: string, metricName: string, reason?: string): string | undefined {
  return queries.find(({ MetricStat }) => {
    const metric = MetricStat?.Metric;
    if (metric?.Namespace !== namespace || metric.MetricName !== metricName) return false;
    return reason === undefined || metric.Dimensions?.some(({ Name, Value }) => Name === 'reason' && Value === reason) === true;
  })?.Id;
}

/** The alarm's value for one period, given the sums of its metrics by query id. */
const valueOf = (sums: Readonly<Record<string, number>>): number => alarmValue(queries, sums);

describe('the API 5XX alarm', () => {
  it('reads API Gateway 5XX answers and each image source failure the uploads count', () => {
    expect(queryId('AWS/ApiGateway', '5XXError')).toBeDefined();
    for (const code of UPSTREAM_CODES) {
      const query = queries.find(({ Id }) => Id === queryId(METRICS_NAMESPACE, 'AvatarUploadFailures', code));
      expect(query?.MetricStat?.Metric.Dimensions).toEqual(expect.arrayContaining([{ Name: 'service', Value: SERVICE_NAME }]));
      expect(query?.MetricStat?.Stat).toBe('Sum');
    }
  });

  it('stays quiet when every 5XX of the period was an image source failing or too slow', () => {
    const serverErrors = queryId('AWS/ApiGateway', '5XXError') ?? '';
    const failed = queryId(METRICS_NAMESPACE, 'AvatarUploadFailures', 'upstream_failed') ?? '';
    const slow = queryId(METRICS_NAMESPACE, 'AvatarUploadFailures', 'upstream_timeout') ?? '';

    const value = valueOf({ [serverErrors]: 40, [failed]: 30, [slow]: 10 });

    expect(value).toBe(0);
    expect(value).toBeLessThan(ALARM_THRESHOLDS.apiServerErrors);
  });

  it('fires on the service\'s own 5XX answers, beside any number of source failures', () => {
    const serverErrors = queryId('AWS/ApiGateway', '5XXError') ?? '';
    const failed = queryId(METRICS_NAMESPACE, 'AvatarUploadFailures', 'upstream_failed') ?? '';

    expect(valueOf({ [serverErrors]: ALARM_THRESHOLDS.apiServerErrors })).toBe(ALARM_THRESHOLDS.apiServerErrors);
    expect(valueOf({ [serverErrors]: 100 + ALARM_THRESHOLDS.apiServerErrors, [failed]: 100 })).toBe(ALARM_THRESHOLDS.apiServerErrors);
    expect(alarm).toMatchObject({ Threshold: ALARM_THRESHOLDS.apiServerErrors, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
  });
});
