import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { invoke } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { runEntryPoint, type Run } from '../local/entry-points';

/**
 * `media-log import FILE.ndjson` in a child process, as an operator runs it: plain entries and the
 * media pipeline feed's messages (DESIGN.md section 7a), on this test file's database.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-import-'));

/** Writes `lines` (objects as JSON, strings as they are) to a file and imports it. */
function importLines(name: string, lines: readonly (object | string)[]): Promise<Run> {
  const file = join(dataDir, name);
  writeFileSync(file, lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') + '\n');
  return runEntryPoint('cli', ['media-log', 'import', file], { env: { DATA_DIR: dataDir } });
}

function entry(userId: number, overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    send: '2026-11-01T10:00:00Z',
    status: 'success',
    'status-ffscan': 'success',
    'status-mediainfo': 'success',
    'status-scan-report': 'success',
    url: `https://media.example.com/${randomUUID()}.mp4`,
    'user-id': userId,
    ...overrides,
  };
}

function mediaRequest(userId: number, id = randomUUID()) {
  return { type: 'media-request', entry: { id, send: '2026-11-01T11:00:00Z', url: `https://media.example.com/${id}.mp4`, 'user-id': userId } };
}

function statusChange(id: string, field: string, value: string, at: string) {
  return { type: 'status', id, field, value, at };
}

/** The user's entries as the API lists them, and the totals of some status filters. */
async function logOf(user: TestUser) {
  const list = (query: string) => invoke('listMediaLog', { token: user.token, query: `user-id=${user.record.id}${query}&pagination[limit]=100` });
  const [all, success, pending, processing, mediainfoError] = await Promise.all(
    ['', '&status=success', '&status=pending', '&status=processing', '&status-mediainfo=error'].map(list),
  );
  return {
    entries: all!.body.log as Record<string, unknown>[],
    totals: [all, success, pending, processing, mediainfoError].map((response) => response!.body.pagination.total as number),
  };
}

describe('cli media-log import', () => {
  it('writes every line of a valid file', async () => {
    const owner = await createTestUser({ role: 'root' });

    const run = await importLines('good.ndjson', [entry(owner.record.id), entry(owner.record.id), entry(owner.record.id)]);

    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('3 entries written');
    const listed = await invoke('listMediaLog', { token: owner.token, query: `user-id=${owner.record.id}` });
    expect(listed.body.pagination.total).toBe(3);
  });

  it('reports a bad line by its number and writes nothing of the file', async () => {
    const owner = await createTestUser({ role: 'root' });

    const run = await importLines('bad.ndjson', [entry(owner.record.id), entry(owner.record.id), entry(owner.record.id, { status: 'bogus' }), '{oops']);

    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/line 3: status/);
    expect(run.stderr).toMatch(/line 4/);
    const listed = await invoke('listMediaLog', { token: owner.token, query: `user-id=${owner.record.id}` });
    expect(listed.body.pagination.total).toBe(0);
  });
});

describe('cli media-log import with feed messages', () => {
  let user: TestUser;
  let lines: object[];
  let ids: { plain: string; early: string; other: string };

  beforeAll(async () => {
    user = await createTestUser({ role: 'user' });
    const plain = entry(user.record.id, { status: 'warning' });
    const early = randomUUID();
    const other = randomUUID();
    ids = { plain: plain.id, early, other };
    lines = [
      // Its request comes later in the file; the import applies it all the same.
      statusChange(early, 'status', 'success', '2026-11-01T11:05:00Z'),
      plain,
      mediaRequest(user.record.id, early),
      // Older than the status above: ignored, whatever the order.
      statusChange(early, 'status', 'processing', '2026-11-01T11:01:00Z'),
      mediaRequest(user.record.id, other),
      statusChange(other, 'status-mediainfo', 'error', '2026-11-01T11:02:00Z'),
    ];
  });

  it('writes the entries, applies the statuses in order of their times and says what it did', async () => {
    const run = await importLines('feed.ndjson', lines);

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: '3 entries written; 2 status changes applied, 1 superseded or repeated\n' });
    const { entries, totals } = await logOf(user);
    const byId = new Map(entries.map((stored) => [stored.id, stored]));
    expect(byId.get(ids.plain)).toMatchObject({ status: 'warning', 'status-ffscan': 'success' });
    expect(byId.get(ids.early)).toMatchObject({ status: 'success', 'status-ffscan': 'pending', 'status-mediainfo': 'pending', 'status-scan-report': 'pending' });
    expect(byId.get(ids.other)).toMatchObject({ status: 'pending', 'status-mediainfo': 'error' });
    // all, status=success, status=pending, status=processing, status-mediainfo=error
    expect(totals).toEqual([3, 1, 1, 0, 1]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await logOf(user);

    const run = await importLines('feed-again.ndjson', lines);

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: '0 entries written, 3 already present; 0 status changes applied, 3 superseded or repeated\n' });
    expect(await logOf(user)).toEqual(before);
  });

  it('names a malformed message by its line number and writes nothing of the file', async () => {
    const owner = await createTestUser({ role: 'user' });
    const id = randomUUID();

    const run = await importLines('malformed.ndjson', [mediaRequest(owner.record.id, id), statusChange(id, 'status', 'success', '2026-11-01T11:05:00Z'), statusChange(id, 'colour', 'success', '2026-11-01T11:06:00Z')]);

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toMatch(/nothing was imported/);
    expect(run.stderr).toMatch(/^ {2}line 3: field: /m);
    expect(run.stderr).not.toMatch(/line [12]\b/);
    expect((await logOf(owner)).totals[0]).toBe(0);
  });

  it('refuses a line stamped over five minutes ahead or past the year 9999, and writes nothing of the file', async () => {
    const owner = await createTestUser({ role: 'user' });
    const id = randomUUID();
    const ahead = new Date(Date.now() + 10 * 60_000).toISOString();

    const run = await importLines('clocks.ndjson', [
      mediaRequest(owner.record.id, id),
      statusChange(id, 'status', 'success', ahead),
      entry(owner.record.id, { send: '9999-12-31T23:59:59-01:00' }),
      { type: 'media-request', entry: { ...mediaRequest(owner.record.id).entry, send: ahead } },
      statusChange(id, 'status', 'error', '0000-01-01T00:00:00+01:00'),
    ]);

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '' });
    expect(run.stderr).toMatch(/^ {2}line 2: at: Must not lie more than 5 minutes in the future\.$/m);
    expect(run.stderr).toMatch(/^ {2}line 3: send: Must fall within the years 0000 to 9999 in UTC\.$/m);
    expect(run.stderr).toMatch(/^ {2}line 4: entry\.send: Must not lie more than 5 minutes in the future\.$/m);
    expect(run.stderr).toMatch(/^ {2}line 5: at: Must fall within the years 0000 to 9999 in UTC\.$/m);
    expect((await logOf(owner)).totals[0]).toBe(0);
  });

  it('applies the rest of a file and exits 1 naming the line of a status whose entry is nowhere', async () => {
    const owner = await createTestUser({ role: 'user' });
    const known = randomUUID();
    const nowhere = randomUUID();

    const run = await importLines('orphan.ndjson', [mediaRequest(owner.record.id, known), statusChange(nowhere, 'status', 'error', '2026-11-01T11:05:00Z'), statusChange(known, 'status', 'error', '2026-11-01T11:05:00Z')]);

    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 1, stdout: '1 entry written; 1 status change applied\n' });
    expect(run.stderr).toContain(`error: 1 line did not apply:\n  line 2: unknown-entry: No entry with id ${nowhere} is stored (yet).\n`);
    expect((await logOf(owner)).entries).toEqual([expect.objectContaining({ id: known, status: 'error' })]);
  });
});
