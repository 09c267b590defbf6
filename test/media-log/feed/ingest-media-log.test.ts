import { randomUUID } from 'node:crypto';
import type { Caller } from '../../../functions/shared/access/roles';
import { createTestUser } from '../../harness/users';
import { deliver, failedBodies, listLog, requestMessage, scanEntries, statusMessage } from './feed-fixture';

/**
 * The consumer of the media pipeline feed (DESIGN.md section 7a) on SQS events as Lambda delivers
 * them: what it stores, what it reports for retry, and that order and repetition change nothing.
 */

let root: Caller;
let nextUser = 5000;

beforeAll(async () => {
  root = (await createTestUser({ role: 'root' })).caller;
});

/** A user id of its own for each test, so listings by user see only that test's entries. */
const freshUser = (): number => (nextUser += 1);

const SEND = '2026-06-01T10:00:00.000Z';
const at = (seconds: number): string => new Date(Date.parse(SEND) + seconds * 1000).toISOString();

describe('the ingestMediaLog consumer', () => {
  it('stores a media request with its absent statuses pending, listed and counted', async () => {
    const user = freshUser();
    const id = randomUUID();
    const { response } = await deliver([requestMessage({ id, send: SEND, url: 'https://media.example.com/a.mp4', 'user-id': user, 'status-ffscan': 'success' })]);
    expect(response).toEqual({ batchItemFailures: [] });
    const page = await listLog(root, `user-id=${user}`);
    expect(page.log).toEqual([
      { id, send: SEND, url: 'https://media.example.com/a.mp4', 'user-id': user, status: 'pending', 'status-ffscan': 'success', 'status-mediainfo': 'pending', 'status-scan-report': 'pending' },
    ]);
    expect(page.total).toBe(1);
  });

  it('applies a status change and moves the entry between the status filters and their totals', async () => {
    const user = freshUser();
    const id = randomUUID();
    await deliver([requestMessage({ id, send: SEND, url: 'https://media.example.com/b.mp4', 'user-id': user })]);
    const { response } = await deliver([statusMessage(id, 'status-mediainfo', 'processing', at(5))]);
    expect(response.batchItemFailures).toEqual([]);
    expect((await listLog(root, `user-id=${user}&status-mediainfo=pending`)).total).toBe(0);
    const processing = await listLog(root, `user-id=${user}&status-mediainfo=processing`);
    expect(processing.total).toBe(1);
    expect(processing.log[0]?.['status-mediainfo']).toBe('processing');
  });

  it('keeps the latest status whatever the delivery order, and ignores an older one arriving last', async () => {
    const user = freshUser();
    const id = randomUUID();
    // The final change first, then the request, then an earlier change of the same field.
    const late = await deliver([statusMessage(id, 'status', 'success', at(30))]);
    expect(late.response.batchItemFailures).toHaveLength(1);
    await deliver([requestMessage({ id, send: SEND, url: 'https://media.example.com/c.mp4', 'user-id': user })]);
    expect((await deliver([statusMessage(id, 'status', 'success', at(30))])).response.batchItemFailures).toEqual([]);
    expect((await deliver([statusMessage(id, 'status', 'processing', at(10))])).response.batchItemFailures).toEqual([]);
    const page = await listLog(root, `user-id=${user}`);
    expect(page.log.map((entry) => entry.status)).toEqual(['success']);
    expect((await listLog(root, `user-id=${user}&status=success`)).total).toBe(1);
    expect((await listLog(root, `user-id=${user}&status=processing`)).total).toBe(0);
  });

  it('applies a request and its statuses in one batch, in whatever order the batch holds them', async () => {
    const user = freshUser();
    const id = randomUUID();
    const { response } = await deliver([
      statusMessage(id, 'status-scan-report', 'warning', at(20)),
      statusMessage(id, 'status-ffscan', 'error', at(3)),
      requestMessage({ id, send: SEND, url: 'https://media.example.com/d.mp4', 'user-id': user }),
    ]);
    expect(response.batchItemFailures).toEqual([]);
    const [entry] = (await listLog(root, `user-id=${user}`)).log;
    expect(entry).toMatchObject({ 'status-scan-report': 'warning', 'status-ffscan': 'error', status: 'pending' });
  });

  it('changes nothing on a duplicate: the same batch twice leaves entries and totals as once', async () => {
    const user = freshUser();
    const ids = [randomUUID(), randomUUID()];
    const batch = [
      ...ids.map((id, index) => requestMessage({ id, send: at(index), url: 'https://media.example.com/e.mp4', 'user-id': user })),
      statusMessage(ids[0] as string, 'status', 'error', at(40)),
    ];
    await deliver(batch);
    const once = await listLog(root, `user-id=${user}`);
    const { response } = await deliver(batch);
    expect(response.batchItemFailures).toEqual([]);
    expect(await listLog(root, `user-id=${user}`)).toEqual(once);
    expect(once.total).toBe(2);
    expect((await listLog(root, `user-id=${user}&status=error`)).total).toBe(1);
  });

  it('reports exactly the malformed and not-yet-applicable messages for retry, and applies the rest of the batch', async () => {
    const user = freshUser();
    const id = randomUUID();
    const unknown = statusMessage(randomUUID(), 'status', 'success', at(1));
    const malformed = [
      'not json',
      JSON.stringify({ type: 'status', id, field: 'status', value: 'done', at: at(1) }),
      JSON.stringify({ type: 'status', id, field: 'colour', value: 'success', at: at(1) }),
      JSON.stringify({ type: 'media-request', entry: { id, send: SEND, url: 'https://media.example.com/f.mp4', 'user-id': user, extra: 1 } }),
      JSON.stringify({ type: 'delete', id }),
      JSON.stringify([]),
      'x'.repeat(262_145),
      // A clock that runs ahead must not freeze a status; a time zone must not leave the calendar.
      JSON.stringify({ type: 'status', id, field: 'status', value: 'error', at: new Date(Date.now() + 6 * 60_000).toISOString() }),
      JSON.stringify({ type: 'status', id, field: 'status', value: 'error', at: '9999-12-31T23:59:59-01:00' }),
      JSON.stringify({ type: 'media-request', entry: { id: randomUUID(), send: new Date(Date.now() + 3_600_000).toISOString(), url: 'https://media.example.com/f.mp4', 'user-id': user } }),
      JSON.stringify({ type: 'media-request', entry: { id: randomUUID(), send: '0000-01-01T00:00:00+00:01', url: 'https://media.example.com/f.mp4', 'user-id': user } }),
    ];
    const { response, records } = await deliver([requestMessage({ id, send: SEND, url: 'https://media.example.com/f.mp4', 'user-id': user }), unknown, ...malformed]);
    expect(failedBodies(response, records).sort()).toEqual([JSON.stringify(unknown), ...malformed].sort());
    expect((await listLog(root, `user-id=${user}`)).total).toBe(1);
  });

  it('applies a status stamped a little ahead of the clock: honest skew between hosts is no fault', async () => {
    const user = freshUser();
    const id = randomUUID();
    await deliver([requestMessage({ id, send: SEND, url: 'https://media.example.com/skew.mp4', 'user-id': user })]);
    const { response } = await deliver([statusMessage(id, 'status', 'success', new Date(Date.now() + 60_000).toISOString())]);
    expect(response.batchItemFailures).toEqual([]);
    expect((await listLog(root, `user-id=${user}`)).log).toEqual([expect.objectContaining({ id, status: 'success' })]);
  });

  it('refuses a request whose id already holds another request, and keeps the stored one', async () => {
    const user = freshUser();
    const id = randomUUID();
    const first = requestMessage({ id, send: SEND, url: 'https://media.example.com/g.mp4', 'user-id': user });
    await deliver([first]);
    const other = requestMessage({ id, send: SEND, url: 'https://media.example.com/other.mp4', 'user-id': user });
    const { response, records } = await deliver([other]);
    expect(failedBodies(response, records)).toEqual([JSON.stringify(other)]);
    const stored = (await scanEntries()).filter((entry) => entry.id === id);
    expect(stored.map((entry) => entry.url)).toEqual(['https://media.example.com/g.mp4']);
  });

  it('accepts upper-case ids and offsets in times, as the same entry and instant', async () => {
    const user = freshUser();
    const id = randomUUID();
    await deliver([requestMessage({ id: id.toUpperCase(), send: '2026-06-01T12:00:00+02:00', url: 'https://media.example.com/h.mp4', 'user-id': user })]);
    const { response } = await deliver([statusMessage(id.toUpperCase(), 'status', 'skipped', '2026-06-01T10:00:01Z')]);
    expect(response.batchItemFailures).toEqual([]);
    expect((await listLog(root, `user-id=${user}`)).log).toEqual([expect.objectContaining({ id, send: SEND, status: 'skipped' })]);
  });

  it('answers an empty event with no failures', async () => {
    expect((await deliver([])).response).toEqual({ batchItemFailures: [] });
  });
});
