import { deployedFunctions } from '../../functions/deployed-functions';
import { METRICS, METRICS_NAMESPACE, SERVICE_DIMENSION, SERVICE_NAME, type MetricName } from '../../functions/shared/observability/metric-catalog';
import { functionPath, logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * The stack's CloudWatch dashboard draws the API's latency and answers, every function's errors,
 * throttles and duration, each stream consumer's lag and failure queue, every business metric of the catalog under the names, namespace and
 * dimensions the functions write, and the state of every alarm of the stack.
 */

type MetricRow = (string | Record<string, unknown>)[];

interface Widget {
  readonly type: string;
  readonly properties: {
    readonly title?: string;
    readonly metrics?: MetricRow[];
    readonly alarms?: string[];
    readonly annotations?: { readonly horizontal?: { readonly value: number }[] };
  };
}

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const ofType = (type: string): string[] => Object.keys(resources).filter((id) => resources[id]?.Type === type);

/**
 * The dashboard body as JSON: CloudFormation joins its text around references, which are written
 * here as `<Ref id>` and `<GetAtt id.attribute>` inside the strings they stand in.
 */
function dashboardWidgets(): Widget[] {
  const [id] = ofType('AWS::CloudWatch::Dashboard');
  const body = resources[id ?? '']?.Properties.DashboardBody as { 'Fn::Join': [string, (string | Record<string, any>)[]] };
  const text = body['Fn::Join'][1]
    .map((part) => {
      if (typeof part === 'string') return part;
      if ('Ref' in part) return `<Ref ${part.Ref as string}>`;
      const [resource, attribute] = part['Fn::GetAtt'] as [string, string];
      return `<GetAtt ${resource}.${attribute}>`;
    })
    .join('');
  return (JSON.parse(text) as { widgets: Widget[] }).widgets;
}

const widgets = dashboardWidgets();
const rows = widgets.flatMap((widget) => widget.properties.metrics ?? []);

/** The metric rows of namespace `namespace` named `name`. */
function rowsOf(namespace: string, name: string): MetricRow[] {
  return rows.filter((row) => row[0] === namespace && row[1] === name);
}

/** The statistic a metric row is drawn with. */
function statOf(row: MetricRow): unknown {
  return (row.at(-1) as { stat?: string }).stat;
}

/** The options (statistic, period, label) a metric row is drawn with. */
function optionsOf(row: MetricRow): Record<string, unknown> {
  return row.at(-1) as Record<string, unknown>;
}

const streamConsumers = deployedFunctions.flatMap((fn) => (fn.kind === 'stream' ? [fn] : []));

/** The search expressions of the dashboard. */
const expressions = rows.flatMap((row) => row.flatMap((cell) => (typeof cell === 'object' && typeof cell.expression === 'string' ? [cell.expression] : [])));

describe('the API dashboard', () => {
  it('is one dashboard of the stack', () => {
    expect(ofType('AWS::CloudWatch::Dashboard')).toHaveLength(1);
  });

  it("draws the API's p50 and p99 latency and its 4XX and 5XX answers", () => {
    expect(rowsOf('AWS/ApiGateway', 'Latency').map(statOf)).toEqual(['p50', 'p99']);
    expect(rowsOf('AWS/ApiGateway', '4XXError').map(statOf)).toEqual(['Sum']);
    expect(rowsOf('AWS/ApiGateway', '5XXError').map(statOf)).toEqual(['Sum']);
  });

  it.each(['Errors', 'Throttles', 'Duration'])('draws the %s of every function of the stack', (metric) => {
    const drawn = rowsOf('AWS/Lambda', metric).map((row) => row[3]);
    expect(drawn.sort()).toEqual(ofType('AWS::Lambda::Function').map((id) => `<Ref ${id}>`).sort());
  });

  it.each(Object.keys(METRICS) as MetricName[])('draws %s as the functions write it', (name) => {
    const { dimensions } = METRICS[name];
    const graph = widgets.find((widget) => widget.properties.title?.startsWith(`${name} (`));
    expect(graph).toBeDefined();
    if (dimensions.length === 0) {
      const drawn = rowsOf(METRICS_NAMESPACE, name);
      expect(drawn.length).toBeGreaterThan(0);
      for (const row of drawn) expect(row.slice(2, 4)).toEqual([SERVICE_DIMENSION, SERVICE_NAME]);
    } else {
      const schema = `{${[METRICS_NAMESPACE, SERVICE_DIMENSION, ...dimensions].join(',')}}`;
      expect(expressions).toContainEqual(expect.stringContaining(`SEARCH('${schema} MetricName="${name}" ${SERVICE_DIMENSION}="${SERVICE_NAME}"'`));
    }
  });

  it('has stream consumers to draw', () => {
    expect(streamConsumers.length).toBeGreaterThan(0);
  });

  it.each(streamConsumers.map((fn) => [fn.name, fn] as const))('draws the lag of %s as its alarm evaluates it, with the threshold', (_name, fn) => {
    const functionId = logicalIdAt(stack, [...functionPath(fn), 'Function']);
    const lag = rowsOf('AWS/Lambda', 'IteratorAge').filter((row) => row[3] === `<Ref ${functionId}>`);
    expect(lag.map(optionsOf)).toEqual([expect.objectContaining({ stat: 'Maximum', period: 60 })]);
    const graph = widgets.find((widget) => widget.properties.metrics?.some((row) => lag.includes(row)));
    expect(graph?.properties.annotations?.horizontal?.map((line) => line.value)).toEqual([60_000]);
  });

  it.each(streamConsumers.map((fn) => [fn.stream.failureQueue]))('draws the depth of the %s queue', (queue) => {
    const queueName = `<GetAtt ${logicalIdAt(stack, ['Streams', queue])}.QueueName>`;
    const depth = rowsOf('AWS/SQS', 'ApproximateNumberOfMessagesVisible').filter((row) => row[3] === queueName);
    expect(depth.map(statOf)).toEqual(['Maximum']);
  });

  it('draws the media log items read per item returned from the two catalog metrics', () => {
    const ratio = rows.find((row) => row.some((cell) => typeof cell === 'object' && cell.expression === 'read / returned'));
    expect(ratio).toBeDefined();
    expect(rowsOf(METRICS_NAMESPACE, 'MediaLogItemsRead').some((row) => JSON.stringify(row).includes('"id":"read"'))).toBe(true);
    expect(rowsOf(METRICS_NAMESPACE, 'MediaLogItemsReturned').some((row) => JSON.stringify(row).includes('"id":"returned"'))).toBe(true);
  });

  it('shows the state of every alarm of the stack', () => {
    const shown = widgets.filter((widget) => widget.type === 'alarm').flatMap((widget) => widget.properties.alarms ?? []);
    const alarms = ofType('AWS::CloudWatch::Alarm');
    expect(alarms.length).toBeGreaterThan(0);
    expect(shown.sort()).toEqual(alarms.map((id) => `<GetAtt ${id}.Arn>`).sort());
  });
});
