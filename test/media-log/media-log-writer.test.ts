import { tableName } from '../../functions/shared/config/data-config';
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { MediaLogWriter } from '../../functions/media-log/feed/entry-writer';
import { getDocumentClient } from '../../functions/shared/aws/clients';
import { mediaLogTable } from '../../functions/shared/tables/media-log-table';
import { UserScopeReader } from '../../functions/shared/tables/user-scope-reader';
import { usersTable } from '../../functions/shared/tables/users-table';
import { parseImportLine, writeMediaLogEntries, writeMediaLogEntry } from '../../functions/media-log/feed/import-changes';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { ConflictError, ValidationError } from '../../functions/shared/errors';
import type { Caller } from '../../functions/shared/access/roles';
import { invoke } from '../harness/invoke';
import { foldLog } from '../harness/media-log';
import { createTestUser } from '../harness/users';

let root: Caller;

beforeAll(async () => {
  // Routes act on the caller as stored: the listing's caller is a real root user.
  root = (await createTestUser({ role: 'root' })).caller;
});

function entry(overrides: Partial<MediaLogEntry> = {}): MediaLogEntry {
  return {
    id: randomUUID(),
    send: '2026-03-04T05:06:07.089Z',
    status: 'success',
    'status-ffscan': 'success',
    'status-mediainfo': 'warning',
    'status-scan-report': 'success',
    url: 'https://media.example.com/a.mp4',
    'user-id': 42,
    ...overrides,
  };
}

async function listed(query = 'pagination[limit]=100') {
  await foldLog();
  const response = await invoke('listMediaLog', { caller: root, query });
  expect(response.status).toBe(200);
  return response.body as { log: MediaLogEntry[]; pagination: { total: number } };
}

function fieldNames(error: unknown): string[] {
  expect(error).toBeInstanceOf(ValidationError);
  return ((error as ValidationError).errors ?? []).map((field) => field.name);
}

describe('writeMediaLogEntry', () => {
  it('stores an entry so that it is listed and counted, normalizing id case and send to UTC', async () => {
    const id = randomUUID();
    const outcome = await writeMediaLogEntry({ ...entry({ id: id.toUpperCase() }), send: '2026-03-04T07:06:07.089+02:00', 'user-id': 7 });
    const page = await listed('user-id=7');
    expect(outcome).toBe('written');
    expect(page.log).toEqual([entry({ id, 'user-id': 7 })]);
    expect(page.pagination.total).toBe(1);
  });

  it('leaves a retried entry alone: stored once, counted once', async () => {
    const retried = entry({ 'user-id': 8 });
    await writeMediaLogEntry(retried);
    const outcome = await writeMediaLogEntry(retried);
    const page = await listed('user-id=8');
    expect(outcome).toBe('unchanged');
    expect(page.log).toEqual([retried]);
    expect(page.pagination.total).toBe(1);
  });

  it.each([
    ['url', { url: 'https://media.example.com/other.mp4' }],
    ['send', { send: '2026-03-04T05:06:07.090Z' }],
    ['user-id', { 'user-id': 10 }],
  ])('refuses another request under an id already stored (409, another %s), changing nothing', async (_, change) => {
    const original = entry({ 'user-id': 9 });
    await writeMediaLogEntry(original);
    await expect(writeMediaLogEntry({ ...original, ...change })).rejects.toBeInstanceOf(ConflictError);
    const page = await listed(`request=${original.id}`);
    expect(page.log).toEqual([original]);
    expect(page.pagination.total).toBe(1);
  });

  it('leaves the stored statuses of a request written again with other statuses: they may have moved on since', async () => {
    const original = entry({ 'user-id': 19 });
    await writeMediaLogEntry(original);
    expect(await writeMediaLogEntry({ ...original, status: 'error' })).toBe('unchanged');
    const page = await listed('user-id=19');
    expect(page.log).toEqual([original]);
    expect(page.pagination.total).toBe(1);
  });

  it.each([
    [{ status: 'done' }, 'status'],
    [{ id: 'not-a-uuid' }, 'id'],
    [{ send: '2026-03-04' }, 'send'],
    [{ url: 'ftp://media.example.com/a.mp4' }, 'url'],
    [{ 'user-id': 0 }, 'user-id'],
    [{ 'user-id': '42' }, 'user-id'],
    [{ extra: true }, 'extra'],
  ])('refuses %j, naming %s', async (change, field) => {
    const error = await writeMediaLogEntry({ ...entry(), ...change }).catch((caught: unknown) => caught);
    expect(fieldNames(error)).toEqual([field]);
  });

  it('keeps exact totals for a burst of entries in the same buckets, once folded', async () => {
    const burst = sampleMediaLogEntries(150, { userIds: [11, 12], start: new Date('2026-04-01T10:00:00Z'), spanMs: 60_000, seed: 3 });
    const summary = await writeMediaLogEntries(burst);
    const page = await listed('user-id=11,12&send[from]=2026-04-01T10:00:00Z&send[to]=2026-04-01T10:01:00Z');
    const all = await listed('send[from]=2026-04-01T10:00:00Z&send[to]=2026-04-01T10:01:00Z');
    expect(summary).toEqual({ written: 150, unchanged: 0 });
    expect(page.pagination.total).toBe(150);
    expect(all.pagination.total).toBe(150);
  });
});

describe('MediaLogWriter under throttling', () => {
  /**
   * DynamoDB Local never leaves a batch unprocessed, so a client that hands back the whole batch of
   * its first `rounds` BatchWriteItem calls as UnprocessedItems stands in for a throttled table.
   */
  function throttledClient(rounds: number): { client: DynamoDBDocumentClient; sent: () => number } {
    let sent = 0;
    const real = getDocumentClient();
    const client = {
      send: async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        if (!(command instanceof BatchWriteCommand)) return real.send(command as never);
        sent += 1;
        if (sent <= rounds) return { UnprocessedItems: command.input.RequestItems, $metadata: {} };
        return real.send(command as never);
      },
    } as unknown as DynamoDBDocumentClient;
    return { client, sent: () => sent };
  }

  it('sends the items DynamoDB left unprocessed again, then stores each entry once', async () => {
    const { client, sent } = throttledClient(3);
    const writer = new MediaLogWriter(client, tableName(mediaLogTable), new UserScopeReader(client, tableName(usersTable)), async () => undefined);
    const written = [entry({ 'user-id': 51 }), entry({ 'user-id': 51 })];
    expect(await writer.writeAll(written)).toEqual(['written', 'written']);
    expect(sent()).toBe(4);
    expect((await listed('user-id=51')).pagination.total).toBe(2);
  });

  it('gives up on a batch after ten rounds, reporting its entries as failed and storing nothing', async () => {
    const { client } = throttledClient(10);
    const writer = new MediaLogWriter(client, tableName(mediaLogTable), new UserScopeReader(client, tableName(usersTable)), async () => undefined);
    const [result] = await writer.writeAll([entry({ 'user-id': 52 })]);
    expect(result).toBeInstanceOf(Error);
    expect((await listed('user-id=52')).pagination.total).toBe(0);
  });
});

describe('writeMediaLogEntries', () => {
  it('writes nothing when one entry is invalid, and names it', async () => {
    const batch = [entry({ 'user-id': 21 }), { ...entry({ 'user-id': 21 }), status: 'bogus' }];
    const error = await writeMediaLogEntries(batch).catch((caught: unknown) => caught);
    expect(fieldNames(error)).toEqual(['entries[1]: status']);
    expect((await listed('user-id=21')).pagination.total).toBe(0);
  });

  it('reports written and unchanged entries, and progress as each step settles', async () => {
    const batch = [entry({ 'user-id': 22 }), entry({ 'user-id': 22 }), entry({ 'user-id': 23 })];
    await writeMediaLogEntry(batch[0]);
    const progress: number[] = [];
    const summary = await writeMediaLogEntries([...batch, batch[1]], { onProgress: (done) => progress.push(done) });
    expect(summary).toEqual({ written: 2, unchanged: 2 });
    // The repeat in the batch is settled at once, the stored one when the ids are checked, the other two by their batch write.
    expect(progress).toEqual([1, 2, 4]);
  });
});

describe('parseImportLine', () => {
  it('parses a valid NDJSON line into a normalized entry', () => {
    const line = JSON.stringify({ ...entry({ id: 'AAAAAAAA-BBBB-4CCC-8DDD-EEEEEEEEEEEE' }), send: '2026-03-04T05:06:07Z' });
    expect(parseImportLine(line, 1)).toEqual({ kind: 'entry', entry: entry({ id: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', send: '2026-03-04T05:06:07.000Z' }) });
  });

  it.each([
    ['{"id":', 3, ['line 3']],
    ['[]', 4, ['line 4']],
    [JSON.stringify({ ...entry(), 'status-ffscan': 'nope' }), 5, ['line 5: status-ffscan']],
    [JSON.stringify({ ...entry(), colour: 'red' }), 6, ['line 6: colour']],
    [JSON.stringify({ ...entry(), url: undefined }), 7, ['line 7: url']],
  ])('refuses %s on line %i, naming the line', (line, lineNumber, names) => {
    let caught: unknown;
    try {
      parseImportLine(line, lineNumber);
    } catch (error) {
      caught = error;
    }
    expect(fieldNames(caught)).toEqual(names);
    expect((caught as ValidationError).detail).toContain(`Line ${lineNumber}`);
  });
});
