import { METRICS_NAMESPACE, SERVICE_NAME } from '../../functions/shared/observability/metric-catalog';
import { UPSTREAM_CODES } from '../../functions/shared/http/problem-catalog';
import { ALARM_THRESHOLDS } from '../../lib/constructs/observability';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * The API's 5XX alarm pages whoever is on call, so it counts only what the service can fix: a
 * 502 or 504 an avatar upload gave because the image source the caller named failed or was too
 * slow is left out (the uploads count those in AvatarUploadFailures, by reason).
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const alarm = resources[logicalIdAt(stack, ['Observability', 'ApiServerErrors'])]?.Properties as Record<string, any>;

interface AlarmQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly ReturnData?: boolean;
  readonly MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }; Stat: string };
}

/** The alarm's queries; an alarm on one metric reads as one query, returned as it is. */
const queries: AlarmQuery[] = alarm?.Metrics ?? [
  { Id: 'single', Expression: 'FILL(single, 0)' },
  { Id: 'single', ReturnData: false, MetricStat: { Metric: { Namespace: alarm?.Namespace, MetricName: alarm?.MetricName, Dimensions: alarm?.Dimensions }, Stat: alarm?.Statistic } },
];

/** The id of the alarm's query of `metricName` in `namespace`, with `reason` when given. */
function queryId(namespace: string, metricName: string, reason?: string): string | undefined {
  return queries.find(({ MetricStat }) => {
    const metric = MetricStat?.Metric;
    if (metric?.Namespace !== namespace || metric.MetricName !== metricName) return false;
    return reason === undefined || metric.Dimensions?.some(({ Name, Value }) => Name === 'reason' && Value === reason) === true;
  })?.Id;
}

/**
 * The alarm's value for one period, given the sums of its metrics by query id (absent: no data).
 * Only FILL(id, 0), ids, + and - are understood; anything else fails the test.
 */
function alarmValue(sums: Readonly<Record<string, number>>): number {
  const expression = queries.find((query) => query.ReturnData !== false && query.Expression !== undefined)?.Expression ?? '';
  const arithmetic = expression.replace(/FILL\((\w+),\s*0\)/g, (_match, id: string) => String(sums[id] ?? 0));
  if (!/^[\d\s+-]+$/.test(arithmetic)) throw new Error(`Not understood: ${expression}`);
  return arithmetic.split(/(?=[+-])/).reduce((total, term) => total + Number(term.replace(/\s/g, '')), 0);
}

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

    const value = alarmValue({ [serverErrors]: 40, [failed]: 30, [slow]: 10 });

    expect(value).toBe(0);
    expect(value).toBeLessThan(ALARM_THRESHOLDS.apiServerErrors);
  });

  it('fires on the service\'s own 5XX answers, beside any number of source failures', () => {
    const serverErrors = queryId('AWS/ApiGateway', '5XXError') ?? '';
    const failed = queryId(METRICS_NAMESPACE, 'AvatarUploadFailures', 'upstream_failed') ?? '';

    expect(alarmValue({ [serverErrors]: ALARM_THRESHOLDS.apiServerErrors })).toBe(ALARM_THRESHOLDS.apiServerErrors);
    expect(alarmValue({ [serverErrors]: 100 + ALARM_THRESHOLDS.apiServerErrors, [failed]: 100 })).toBe(ALARM_THRESHOLDS.apiServerErrors);
    expect(alarm).toMatchObject({ Threshold: ALARM_THRESHOLDS.apiServerErrors, ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching' });
  });
});
