import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import { CountFold } from '../../functions/media-log/fold/count-fold';
import { readDeltaRecords } from '../../functions/media-log/fold/delta-items';
import { clientOptions, getDocumentClient } from '../../functions/shared/aws/clients';
import { dataConfig, tableName } from '../../functions/shared/config/data-config';
import { mediaLogCountsTable } from '../../functions/shared/tables/media-log-table';
import { dataDirCheckpointsOf, LocalMediaLogFold } from '../../local/fold/media-log-fold';
import { DATA_DIR_LAYOUT } from '../../local/backends/data-dir-layout';
import { applyMediaLogDeltasFunction } from '../../functions/media-log/fold/stream-functions';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { invoke } from '../harness/invoke';
import { createTestUser } from '../harness/users';

/**
 * Stopping `npm start` while its fold runs loses nothing (DESIGN.md section 7b): the next start
 * reads the stream from the last batch it finished, and whatever the stopped fold had written of
 * the batch it was in counts once.
 */

/** A second-stage runner that dies after `after` counter writes, as a process stopped mid-batch does. */
function dyingAfter(after: number) {
  const real = getDocumentClient();
  let writes = 0;
  const client = {
    send: async (command: unknown) => {
      if (command instanceof UpdateCommand && (writes += 1) > after) throw new Error('process stopped');
      return real.send(command as never);
    },
  } as unknown as DynamoDBDocumentClient;
  const fold = new CountFold(client, tableName(mediaLogCountsTable));
  return async (event: { Records: unknown[]; shardId: string }) => {
    await fold.apply(event.shardId, readDeltaRecords(event.Records as never).counters);
  };
}

it('resumes from the stream where a stopped fold left off, every entry counted once', async () => {
  const root = await createTestUser({ role: 'root' });
  const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-fold-resume-'));
  const users = [91_001, 91_002, 91_003];
  const first = sampleMediaLogEntries(1200, { userIds: users, start: new Date('2026-06-01T00:00:00Z'), spanMs: 5 * 86_400_000, seed: 21 });
  await writeMediaLogEntries(first);

  // The first start writes the deltas of two batches of records (1,000 and 200), applies the first
  // delta item to the counters, then stops in the middle of the second.
  let batches = 0;
  let dead = false;
  // Batches of 1,000 records, so that 1,200 are two of them (the mapping's own batches are larger),
  // and one delta item per second-stage batch.
  const stopped = new LocalMediaLogFold(dataDirCheckpointsOf(dataDir), {
    batchSize: 1000,
    deltasBatchSize: 1,
    runDeltas: async (event) => {
      batches += 1;
      if (dead) throw new Error('process stopped');
      try {
        await (batches === 1 ? dyingAfter(Infinity) : dyingAfter(25))(event as never);
      } catch (error) {
        // A stopped process runs nothing more, not even the bisected halves a mapping would try.
        dead = true;
        throw error;
      }
    },
  });
  await expect(stopped.drain()).rejects.toThrow('process stopped');
  await stopped.stop();
  const checkpoint = JSON.parse(readFileSync(join(dataDir, DATA_DIR_LAYOUT.streamCheckpoints(applyMediaLogDeltasFunction.name)), 'utf8'));
  expect(Object.values(Object.values(checkpoint)[0] as Record<string, string>)).toHaveLength(1);

  // The next start resumes: the first stage has nothing left, the second reads from its checkpoint, not from the stream's start.
  const resumed = new LocalMediaLogFold(dataDirCheckpointsOf(dataDir));
  const drained = await resumed.drain();
  await resumed.stop();
  expect(drained.read).toBe(0);
  expect(drained.deltas.delivered).toBe(1);

  const response = await invoke('listMediaLog', { caller: root.caller, query: `user-id=${users.join(',')}&pagination[limit]=1` });
  expect(response.body.pagination.total).toBe(1200);
  for (const status of ['success', 'error'] as const) {
    const filtered = await invoke('listMediaLog', { caller: root.caller, query: `user-id=${users.join(',')}&status=${status}&pagination[limit]=1` });
    expect(filtered.body.pagination.total).toBe(first.filter((entry) => entry.status === status).length);
  }
}, 240_000);

it('reports a fold failing pass after pass once, not four times a second', async () => {
  await writeMediaLogEntries(sampleMediaLogEntries(1, { userIds: [91_010], start: new Date('2026-06-01T00:00:00Z'), spanMs: 1000, seed: 22 }));
  const reported: unknown[] = [];
  const failing = new LocalMediaLogFold(undefined, {
    run: async () => {
      throw new Error('the counts table is gone');
    },
  });
  failing.start((error) => reported.push(error), 10);
  await new Promise((resolve) => setTimeout(resolve, 500));
  await failing.stop();
  expect(reported).toEqual([expect.objectContaining({ message: 'the counts table is gone' })]);
});

it('polls with only the calls a poll needs: the stream found once, one GetRecords per shard from where the last poll stopped, no DescribeTable', async () => {
  const calls: string[] = [];
  const streams = new DynamoDBStreamsClient(clientOptions({ region: dataConfig().region, endpoint: dataConfig().dynamodbEndpoint, accessKey: dataConfig().accessKey }));
  streams.middlewareStack.add((next, context) => async (args) => {
    calls.push(context.commandName ?? '');
    return next(args);
  }, { step: 'initialize', name: 'callLog' });
  const fold = new LocalMediaLogFold(undefined, { streams });
  await fold.drain();
  calls.length = 0;
  const started = performance.now();
  for (let poll = 0; poll < 5; poll += 1) {
    await writeMediaLogEntries(sampleMediaLogEntries(3, { userIds: [91_020], start: new Date('2026-06-02T00:00:00Z'), spanMs: 60_000, seed: 30 + poll }));
    await fold.drain();
  }
  const seconds = (performance.now() - started) / 1000;
  await fold.stop();
  // No new iterator, no stream lookup (DescribeTable, which DynamoDB Local answers by walking the
  // table, is not even possible: the poller has no DynamoDB client); the shards listed again at most every 10 s.
  expect(calls.filter((name) => name !== 'GetRecordsCommand' && name !== 'DescribeStreamCommand')).toEqual([]);
  // Both stages poll, each its own stream through the one client.
  expect(calls.filter((name) => name === 'DescribeStreamCommand').length).toBeLessThanOrEqual(2 * Math.ceil(seconds / 10));
  expect(calls.filter((name) => name === 'GetRecordsCommand').length).toBeLessThanOrEqual(2 * 5 * 2);
});
