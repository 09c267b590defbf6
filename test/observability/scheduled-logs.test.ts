import { enableTelemetry, isMetricLine, useTelemetryCapture, type Line } from './telemetry-capture';

enableTelemetry();
const { functionNamed, runFunction } = await import('../../local/invoke/run-function');

/**
 * A function that no API request invokes (the daily avatar reconciler) still writes the Lambda
 * context on each of its lines, as the routes and the authorizer do: a night's failed run is found
 * in its log group by its Lambda request id. Run as `invoke` runs it, on the event EventBridge sends.
 */

const lines = useTelemetryCapture();

/** The scheduled event of an EventBridge rule (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-run-lambda-schedule.html). */
function scheduledEvent(): unknown {
  return { version: '0', id: crypto.randomUUID(), 'detail-type': 'Scheduled Event', source: 'aws.events', account: '123456789012', time: new Date().toISOString(), region: 'us-east-1', resources: [], detail: {} };
}

/** The reconciler's own lines of one run. */
async function reconcilerLines(): Promise<Line[]> {
  await runFunction(functionNamed('reconcileAvatarObjects'), scheduledEvent());
  return lines.take().filter((line) => !isMetricLine(line) && line.message === 'Avatar objects reconciled');
}

describe('the avatar reconciler', () => {
  it('writes its Lambda request id, its name and no API request id on its lines, one Lambda request id per run', async () => {
    const first = await reconcilerLines();
    const second = await reconcilerLines();

    expect(first).toEqual([expect.objectContaining({ function_name: 'reconcileAvatarObjects', service: 'frontend-api', examined: expect.any(Number) })]);
    expect(second).toHaveLength(1);
    expect(first[0]?.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second[0]?.function_request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second[0]?.function_request_id).not.toBe(first[0]?.function_request_id);
    expect(first[0]?.correlation_id).toBeUndefined();
    expect(first[0]?.route).toBeUndefined();
  });
});
