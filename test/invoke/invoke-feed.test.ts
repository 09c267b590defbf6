import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { runEntryPoint, type Run } from '../local/entry-points';

/**
 * The media pipeline feed through `npm run invoke` (DESIGN.md section 7a): SQS events generated and
 * run against the queue consumer in child processes, on this test file's database.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-invoke-feed-'));

function runInvoke(args: readonly string[], stdin?: string): Promise<Run> {
  return runEntryPoint('invoke', args, { env: { DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'INFO' }, stdin });
}

async function generateSqs(bodies: readonly string[]): Promise<{ Records: Record<string, any>[] }> {
  const run = await runInvoke(['--generate-event', 'SQS', ...bodies.flatMap((body) => ['--body', body])]);
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

/** One listing of the log as `user` sees it: its entries and total. */
async function listing(user: TestUser, query: string): Promise<{ log: Record<string, unknown>[]; total: number }> {
  const response = await invoke('listMediaLog', { token: user.token, query: `user-id=${user.record.id}&${query}` });
  expect(response.status).toBe(200);
  return { log: response.body.log, total: response.body.pagination.total };
}

describe('npm run invoke with the media pipeline feed', () => {
  it('--generate-event SQS prints one record per --body, shaped as Lambda delivers SQS messages', async () => {
    const bodies = ['{"type":"status","id":"x"}', 'not even JSON: any text is a message body'];

    const event = await generateSqs(bodies);

    expect(event.Records.map((record) => record.body)).toEqual(bodies);
    for (const [index, record] of event.Records.entries()) {
      expect(record).toMatchObject({
        messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        receiptHandle: expect.stringMatching(/\S/),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: expect.stringMatching(/^\d+$/) },
        messageAttributes: {},
        md5OfBody: createHash('md5').update(bodies[index] as string).digest('hex'),
        eventSource: 'aws:sqs',
        eventSourceARN: expect.stringMatching(/^arn:aws:sqs:[a-z0-9-]+:\d{12}:MediaLogEvents$/),
      });
      expect(record.eventSourceARN.split(':')[3]).toBe(record.awsRegion);
    }
    expect(new Set(event.Records.map((record) => record.messageId)).size).toBe(2);
  });

  describe('ingestMediaLog on a generated event', () => {
    let user: TestUser;
    let entryId: string;
    let unknownId: string;
    let eventText: string;
    let ids: { request: string; status: string; unknown: string; malformed: string };

    beforeAll(async () => {
      user = await createTestUser({ role: 'user' });
      entryId = randomUUID();
      unknownId = randomUUID();
      const bodies = [
        { type: 'media-request', entry: { id: entryId, send: '2026-11-02T09:00:00Z', url: `https://media.example.com/${entryId}.mp4`, 'user-id': user.record.id } },
        { type: 'status', id: entryId, field: 'status-ffscan', value: 'success', at: '2026-11-02T09:00:05Z' },
        { type: 'status', id: unknownId, field: 'status', value: 'error', at: '2026-11-02T09:00:06Z' },
        { type: 'status', id: entryId, field: 'colour', value: 'success', at: '2026-11-02T09:00:07Z' },
      ].map((body) => JSON.stringify(body));
      const event = await generateSqs(bodies);
      const [request, status, unknown, malformed] = event.Records.map((record) => record.messageId as string) as [string, string, string, string];
      ids = { request, status, unknown, malformed };
      eventText = JSON.stringify(event);
    }, 60_000);

    it('applies what it can and answers with exactly the unknown-entry and malformed messages, each logged with its reason', async () => {
      const file = join(dataDir, 'feed-event.json');
      writeFileSync(file, eventText);

      const run = await runInvoke(['ingestMediaLog', '--event', file]);

      expect(run.status).toBe(0);
      const failures = JSON.parse(run.stdout).batchItemFailures.map((failure: { itemIdentifier: string }) => failure.itemIdentifier);
      expect(failures.sort()).toEqual([ids.unknown, ids.malformed].sort());
      const logged = (messageId: string) => run.stderr.split('\n').filter((line) => line.includes(messageId)).map((line) => JSON.parse(line));
      expect(logged(ids.malformed)).toEqual([expect.objectContaining({ message: 'Feed message rejected', outcome: 'malformed', reason: expect.stringMatching(/^field: Invalid option/) })]);
      expect(logged(ids.unknown)).toEqual([expect.objectContaining({ message: 'Feed message not applied', outcome: 'unknown-entry', reason: expect.stringContaining(unknownId) })]);
      expect(await listing(user, `request=${entryId}`)).toEqual({
        total: 1,
        log: [expect.objectContaining({ id: entryId, status: 'pending', 'status-ffscan': 'success', 'status-mediainfo': 'pending', 'status-scan-report': 'pending' })],
      });
      expect((await listing(user, 'status-ffscan=success')).total).toBe(1);
      expect((await listing(user, 'status-ffscan=pending')).total).toBe(0);
    });

    it('changes nothing when the same event comes again, on standard input', async () => {
      const before = await Promise.all([listing(user, ''), listing(user, 'status-ffscan=success'), listing(user, 'status=pending')]);

      const run = await runInvoke(['ingestMediaLog'], eventText);

      expect(run.status).toBe(0);
      const failures = JSON.parse(run.stdout).batchItemFailures.map((failure: { itemIdentifier: string }) => failure.itemIdentifier);
      expect(failures.sort()).toEqual([ids.unknown, ids.malformed].sort());
      const after = await Promise.all([listing(user, ''), listing(user, 'status-ffscan=success'), listing(user, 'status=pending')]);
      expect(after).toEqual(before);
      expect(after.map((page) => page.total)).toEqual([1, 1, 1]);
    });
  });

  it('runs an event piped from --generate-event', async () => {
    const user = await createTestUser({ role: 'user' });
    const id = randomUUID();
    const generated = await runInvoke(['--generate-event', 'SQS', '--body', JSON.stringify({ type: 'media-request', entry: { id, send: '2026-11-03T08:00:00Z', url: 'https://media.example.com/piped.mp4', 'user-id': user.record.id, status: 'success' } })]);

    const run = await runInvoke(['ingestMediaLog'], generated.stdout);

    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ batchItemFailures: [] });
    expect(await listing(user, 'status=success')).toEqual({ total: 1, log: [expect.objectContaining({ id, status: 'success', 'status-ffscan': 'pending' })] });
  });
});
