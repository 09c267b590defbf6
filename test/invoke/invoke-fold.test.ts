import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { runEntryPoint, type Run } from '../local/entry-points';

/**
 * The counter fold through `npm run invoke` (DESIGN.md sections 7b and 8): a request and two status
 * changes through `ingestMediaLog`, counted before the command returns; the stream event they made,
 * printed by `--generate-event STREAM` and run through `foldMediaLogCounts` again, as a replay: the
 * totals stay what they are, with the event's shard named or not.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-invoke-fold-'));

function runInvoke(args: readonly string[], stdin?: string): Promise<Run> {
  return runEntryPoint('invoke', args, { env: { DATA_DIR: dataDir }, stdin });
}

let user: TestUser;
const id = randomUUID();

/** The user's totals: all of its entries, and those whose status is each of three values. */
async function totals(): Promise<Record<string, number>> {
  const query = async (extra: string) => {
    const response = await invoke('listMediaLog', { token: user.token, query: `user-id=${user.record.id}${extra}` });
    expect(response.status).toBe(200);
    return response.body.pagination.total as number;
  };
  return { all: await query(''), pending: await query('&status=pending'), processing: await query('&status=processing'), success: await query('&status=success') };
}

beforeAll(async () => {
  user = await createTestUser({ role: 'user' });
  const messages = [
    { type: 'media-request', entry: { id, send: '2026-11-24T09:00:00Z', url: 'https://media.example.com/fold.mp4', 'user-id': user.record.id } },
    { type: 'status', id, field: 'status', value: 'processing', at: '2026-11-24T09:01:00Z' },
    { type: 'status', id, field: 'status', value: 'success', at: '2026-11-24T09:05:00Z' },
  ];
  const generated = await runInvoke(['--generate-event', 'SQS', ...messages.flatMap((message) => ['--body', JSON.stringify(message)])]);
  const ingested = await runInvoke(['ingestMediaLog'], generated.stdout);
  expect({ status: ingested.status, stdout: JSON.parse(ingested.stdout) }).toEqual({ status: 0, stdout: { batchItemFailures: [] } });
}, 120_000);

describe('npm run invoke with the counter fold', () => {
  it('counts what ingestMediaLog wrote before the command returns', async () => {
    expect(await totals()).toEqual({ all: 1, pending: 0, processing: 0, success: 1 });
  });

  it('--generate-event STREAM prints the stream changes as the fold receives them, its shard named', async () => {
    const run = await runInvoke(['--generate-event', 'STREAM', '--last', '3']);
    expect(run.status).toBe(0);
    const event = JSON.parse(run.stdout);
    expect(event).toMatchObject({ shardId: expect.stringMatching(/^shardId-/), eventSourceARN: expect.stringMatching(/\/stream\//), state: {}, isFinalInvokeForWindow: false });
    expect(event.Records.map((record: { eventName: string }) => record.eventName)).toEqual(['INSERT', 'MODIFY', 'MODIFY']);
    for (const record of event.Records) {
      expect(record).toMatchObject({ eventSource: 'aws:dynamodb', eventSourceARN: event.eventSourceARN, dynamodb: { Keys: { pk: { S: `E#${id}` } }, SequenceNumber: expect.stringMatching(/^\d+$/) } });
    }
    expect(event.Records[2].dynamodb.OldImage.status).toEqual({ S: 'processing' });
    expect(event.Records[2].dynamodb.NewImage.status).toEqual({ S: 'success' });
  });

  it('changes no total when the same stream event is folded again, twice, with its shard named or not', async () => {
    const generated = await runInvoke(['--generate-event', 'STREAM', '--last', '3']);
    const event = JSON.parse(generated.stdout);
    const file = join(dataDir, 'stream-event.json');
    writeFileSync(file, generated.stdout);
    const before = await totals();

    const first = await runInvoke(['foldMediaLogCounts', '--event', file]);
    const second = await runInvoke(['foldMediaLogCounts', '--event', file]);
    // As `sam local generate-event dynamodb update` prints it: no shard, no window.
    const { shardId: _shard, window: _window, state: _state, isFinalInvokeForWindow: _final, isWindowTerminatedEarly: _early, ...bare } = event;
    const third = await runInvoke(['foldMediaLogCounts'], JSON.stringify(bare));

    for (const run of [first, second, third]) expect({ status: run.status, result: JSON.parse(run.stdout) }).toEqual({ status: 0, result: { state: {}, batchItemFailures: [] } });
    expect(await totals()).toEqual(before);
  });

  it('refuses an event of another kind before anything runs', async () => {
    const run = await runInvoke(['foldMediaLogCounts'], JSON.stringify({ Records: [{ eventSource: 'aws:sqs', messageId: 'm', body: '{}' }] }));
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/foldMediaLogCounts takes a DynamoDB Streams event/);
  });
});
