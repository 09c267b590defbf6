import { enableTelemetry, isMetricLine, useTelemetryCapture, type Line } from './telemetry-capture';

enableTelemetry({ metrics: true });
const { METRICS_NAMESPACE } = await import('../../functions/shared/observability/metric-catalog');
const { functionNamed, runFunction } = await import('../../local/invoke/run-function');
const { generateSqsEvent } = await import('../../local/invoke/sqs-event');

/**
 * The feed consumer's telemetry, run as `invoke` runs it on an SQS event: its lines carry its
 * Lambda context (and no API request id: no request invoked it), and it counts its messages by
 * outcome in the `FeedMessages` metric, one embedded-metric line per outcome.
 */

const lines = useTelemetryCapture();

describe('the ingestMediaLog consumer', () => {
  it('logs with its Lambda context and counts messages by outcome', async () => {
    const id = crypto.randomUUID();
    const request = { type: 'media-request', entry: { id, send: '2026-08-01T10:00:00.000Z', url: 'https://media.example.com/t.mp4', 'user-id': 77 } };
    const status = { type: 'status', id, field: 'status', value: 'success', at: '2026-08-01T10:00:09.000Z' };
    const unknown = { ...status, id: crypto.randomUUID() };
    const event = generateSqsEvent([request, status, status, unknown, '{"type":"status"}'].map((body) => (typeof body === 'string' ? body : JSON.stringify(body))), 'MediaLogEvents');
    const response = (await runFunction(functionNamed('ingestMediaLog'), event)) as { batchItemFailures: { itemIdentifier: string }[] };
    expect(response.batchItemFailures).toHaveLength(2);

    const captured = lines.take();
    const batch = captured.find((line) => line.message === 'Feed batch') as Line;
    expect(batch).toMatchObject({ function_name: 'ingestMediaLog', messages: 5, applied: 2, ignored: 1, 'unknown-entry': 1, malformed: 1 });
    expect(batch.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(batch.correlation_id).toBeUndefined();
    expect(captured.find((line) => line.message === 'Feed message rejected')).toMatchObject({ function_name: 'ingestMediaLog', outcome: 'malformed', reason: expect.stringContaining('id') });

    const counted = Object.fromEntries(
      captured.filter(isMetricLine).filter((line) => 'FeedMessages' in line).map((line) => [line.outcome as string, line.FeedMessages as number]),
    );
    expect(counted).toEqual({ applied: 2, ignored: 1, 'unknown-entry': 1, malformed: 1 });
    const metricLine = captured.find((line) => isMetricLine(line) && 'FeedMessages' in line) as Line;
    expect(metricLine._aws.CloudWatchMetrics[0]).toMatchObject({ Namespace: METRICS_NAMESPACE, Metrics: [{ Name: 'FeedMessages', Unit: 'Count' }] });
    expect(metricLine._aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(expect.arrayContaining(['outcome']));
  });
});
