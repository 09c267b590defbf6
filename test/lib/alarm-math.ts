/**
 * The metric math alarms of the synthesized stack, read and evaluated as CloudWatch does, for the
 * alarm tests: which metrics an alarm reads, and its value for given sums of them.
 */

/** One query of an alarm's `Metrics`: a metric it reads, or the expression it returns. */
export interface AlarmQuery {
  readonly Id: string;
  readonly Expression?: string;
  readonly ReturnData?: boolean;
  readonly MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: unknown }[] }; Period: number; Stat: string };
}

/** An alarm's queries; an alarm on one metric reads as one query, returned as it is. */
export function alarmQueries(alarm: Record<string, any> | undefined): AlarmQuery[] {
  return (
    alarm?.Metrics ?? [
      { Id: 'single', Expression: 'FILL(single, 0)' },
      { Id: 'single', ReturnData: false, MetricStat: { Metric: { Namespace: alarm?.Namespace, MetricName: alarm?.MetricName, Dimensions: alarm?.Dimensions }, Period: alarm?.Period, Stat: alarm?.Statistic } },
    ]
  );
}

/**
 * The value of the expression an alarm returns for one period, given the sums of its metrics by
 * query id (absent: no data), as CloudWatch's metric math computes it
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/using-metric-math.html). Only
 * FILL, IF, ids, numbers, + and -, and comparisons are understood; anything else fails the test.
 */
export function alarmValue(queries: readonly AlarmQuery[], sums: Readonly<Record<string, number>>): number {
  const expression = queries.find((query) => query.ReturnData !== false && query.Expression !== undefined)?.Expression ?? '';
  if (!/^(?:\w+|[\s(),+-]|==|>=|<=)+$/.test(expression)) throw new Error(`Not understood: ${expression}`);
  const ids = [...new Set(queries.filter((query) => query.MetricStat !== undefined).map((query) => query.Id))];
  const FILL = (value: number | undefined, fallback: number): number => value ?? fallback;
  const IF = (condition: boolean, then: number, otherwise: number): number => (condition ? then : otherwise);
  const evaluate = new Function('FILL', 'IF', ...ids, `return ${expression};`) as (...args: unknown[]) => number;
  return evaluate(FILL, IF, ...ids.map((id) => sums[id]));
}
