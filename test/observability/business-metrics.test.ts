import { enableTelemetry, isMetricLine, useTelemetryCapture, type Line } from './telemetry-capture';

/**
 * The business metrics as the functions write them: CloudWatch embedded metric format lines,
 * captured as written (metrics switched on, as in Lambda), for real avatar uploads through the
 * authorizer and the upload route, and for media log listings against DynamoDB Local.
 */

enableTelemetry({ metrics: true });
const { METRICS, METRICS_NAMESPACE, SERVICE_NAME } = await import('../../functions/shared/observability/metric-catalog');
const { getDocumentClient } = await import('../../functions/shared/aws/clients');
const { quadrantImage } = await import('../fixtures/images/generate');
const { invoke } = await import('../harness/invoke');
const { itemsReadOf } = await import('../../functions/shared/observability/read-meter');
const { attachReadMeter } = await import('../../local/metering/read-meter');
const { createTestUser } = await import('../harness/users');
const { createLogUsers, seedLog } = await import('../media-log/log-fixture');
const { useAvatarTestBed } = await import('../avatars/routes/test-bed');

const bed = useAvatarTestBed();
const lines = useTelemetryCapture();

/** The metric lines captured since the last call. */
function metricLines(): Line[] {
  return lines.take().filter(isMetricLine);
}

/** The line that holds metric `name`. */
function lineWith(captured: readonly Line[], name: string): Line {
  const line = captured.find((candidate) => name in candidate);
  if (!line) throw new Error(`No metric line holds ${name}: ${JSON.stringify(captured)}`);
  return line;
}

describe('an avatar upload', () => {
  it('writes AvatarUploads, AvatarFetchBytes and AvatarFetchTime in one line of the service namespace', async () => {
    const user = await createTestUser();
    const photo = await quadrantImage(64, 48, 'png');

    const response = await bed.upload(user);

    expect(response.status).toBe(201);
    const captured = metricLines();
    expect(captured).toHaveLength(1);
    const line = captured[0] as Line;
    expect(line).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [['service']],
            Metrics: expect.arrayContaining([
              { Name: 'AvatarFetchBytes', Unit: METRICS.AvatarFetchBytes.unit },
              { Name: 'AvatarFetchTime', Unit: METRICS.AvatarFetchTime.unit },
              { Name: 'AvatarUploads', Unit: METRICS.AvatarUploads.unit },
            ]),
          },
        ],
      },
      service: SERVICE_NAME,
      AvatarFetchBytes: photo.byteLength,
      AvatarFetchTime: expect.any(Number),
      AvatarUploads: 1,
    });
    expect(line._aws.CloudWatchMetrics[0].Metrics).toHaveLength(3);
    expect(line.AvatarFetchTime).toBeGreaterThanOrEqual(0);
    expect(line.AvatarFetchTime).toBeLessThan(10_000);
  });

  it('that fails writes AvatarUploadFailures with the problem code as its reason, on a line of its own', async () => {
    const user = await createTestUser();
    const missing = `${bed.photoUrl.replace(/\/photo\.png$/, '')}/missing.png`;

    const response = await invoke('uploadCurrentAvatar', { token: user.token, body: { avatar: missing, crop: { left: 0, top: 0, size: 8 } } });

    expect(response.status).toBe(502);
    expect(response.body.code).toBe('upstream_failed');
    const captured = metricLines();
    expect(captured).toEqual([
      {
        _aws: {
          Timestamp: expect.any(Number),
          CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['service', 'reason']], Metrics: [{ Name: 'AvatarUploadFailures', Unit: 'Count' }] }],
        },
        service: SERVICE_NAME,
        reason: 'upstream_failed',
        AvatarUploadFailures: 1,
      },
    ]);
  });

  it('refused before its input is accepted counts no upload at all', async () => {
    const user = await createTestUser();

    const response = await invoke('uploadCurrentAvatar', { token: user.token, body: { avatar: bed.photoUrl } });

    expect(response.status).toBe(400);
    expect(metricLines()).toEqual([]);
  });
});

describe('a media log listing', () => {
  it('writes the items it read and the entries it returned, as DynamoDB counts them', async () => {
    const users = await createLogUsers();
    await seedLog(users, 120);
    const meter = attachReadMeter(getDocumentClient());
    let response: Awaited<ReturnType<typeof invoke>>;
    try {
      // The caller handed over: the meter then sees the listing and the caller's profile read only.
      response = await invoke('listMediaLog', { caller: users.owner.caller, query: 'pagination[limit]=7' });
    } finally {
      meter.detach();
    }

    expect(response.status).toBe(200);
    const line = lineWith(metricLines(), 'MediaLogItemsRead');
    expect(line.MediaLogItemsReturned).toBe(7);
    const tally = meter.tally();
    const profileRead = 1;
    expect(line.MediaLogItemsRead).toBe(itemsReadOf(tally) - profileRead);
    expect(line.MediaLogItemsRead).toBeGreaterThanOrEqual(7);
    expect(line._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);
  });
});
