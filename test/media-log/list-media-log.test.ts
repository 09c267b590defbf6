import { jest } from '@jest/globals';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { invoke } from '../harness/invoke';
import { createLogUsers, seedLog, sorted, walkCursor, walkPages, type LogUsers } from './log-fixture';

let users: LogUsers;
let entries: MediaLogEntry[];

beforeAll(async () => {
  users = await createLogUsers();
  entries = await seedLog(users);
}, 120_000);

// Several tests walk a listing page by page, each page a merge of shards and a read of its entries.
jest.setTimeout(90_000);

const ids = (list: readonly MediaLogEntry[]) => list.map((entry) => entry.id);
const of = (...owners: { record: { id: number } }[]) => (entry: MediaLogEntry) => owners.some((owner) => owner.record.id === entry['user-id']);

/** Walk every page of `query` as root and compare with the brute-force answer. */
async function expectListing(query: string, keep: (entry: MediaLogEntry) => boolean, order: 'asc' | 'desc' = 'desc', token = users.root.token) {
  const expected = sorted(entries.filter(keep), order);
  const walk = await walkPages(token, query, 100);
  expect(ids(walk.entries)).toEqual(ids(expected));
  expect(new Set(walk.totals)).toEqual(new Set([expected.length]));
  return walk;
}

describe('GET /media/log', () => {
  it('lists the newest entries first by default, in the spec shape', async () => {
    const response = await invoke('listMediaLog', { token: users.root.token });
    expect(response.status).toBe(200);
    expect(response.body.log).toEqual(sorted(entries).slice(0, 10));
    expect(response.body.pagination).toEqual({ count: 10, limit: 10, page: 1, total: entries.length, next: expect.any(String), 'total-exact': true });
    expect(response.body.sort).toEqual({ field: 'send', order: 'desc' });
    expect(response.body.filter).toEqual({});
  });

  it('sorts oldest first with sort[order]=asc and newest first with desc', async () => {
    await expectListing('sort[field]=send&sort[order]=asc', () => true, 'asc');
    await expectListing('sort[order]=desc', () => true, 'desc');
  });
});

describe('GET /media/log filters, each alone', () => {
  it.each([
    ['status=error', (entry: MediaLogEntry) => entry.status === 'error'],
    ['status=warning,pending', (entry: MediaLogEntry) => ['warning', 'pending'].includes(entry.status)],
    ['status-ffscan=warning&status-ffscan=skipped', (entry: MediaLogEntry) => ['warning', 'skipped'].includes(entry['status-ffscan'])],
    ['status-ffscan[]=warning&status-ffscan[]=skipped', (entry: MediaLogEntry) => ['warning', 'skipped'].includes(entry['status-ffscan'])],
    ['status-ffscan[1]=skipped&status-ffscan[0]=warning', (entry: MediaLogEntry) => ['warning', 'skipped'].includes(entry['status-ffscan'])],
    ['status-mediainfo=error', (entry: MediaLogEntry) => entry['status-mediainfo'] === 'error'],
    ['status-scan-report=success', (entry: MediaLogEntry) => entry['status-scan-report'] === 'success'],
    ['send[from]=2025-12-24T10:11:12.5Z', (entry: MediaLogEntry) => entry.send >= '2025-12-24T10:11:12.500Z'],
    ['send[to]=2026-01-10T14:30:00Z', (entry: MediaLogEntry) => entry.send <= '2026-01-10T14:30:00.000Z'],
    ['send[from]=2025-12-31T23:00:00%2B01:00&send[to]=2026-01-10T14:45:10.003Z', (entry: MediaLogEntry) => entry.send >= '2025-12-31T22:00:00.000Z' && entry.send <= '2026-01-10T14:45:10.003Z'],
    ['send[from]=2026-01-10T14:10:00Z&send[to]=2026-01-10T14:40:00Z', (entry: MediaLogEntry) => entry.send >= '2026-01-10T14:10:00.000Z' && entry.send <= '2026-01-10T14:40:00.000Z'],
    ['send[from]=2026-01-01T00:00:00Z&send[to]=2026-02-01T00:00:00Z', (entry: MediaLogEntry) => entry.send >= '2026-01-01T00:00:00.000Z' && entry.send <= '2026-02-01T00:00:00.000Z'],
  ])('%s lists exactly the matching entries', async (query, keep) => {
    await expectListing(query, keep);
  });

  it('user-id lists those users\' entries, merged in send order', async () => {
    const wanted = `user-id=${users.subs[0]!.record.id}&user-id=${users.other.record.id},${users.otherSub.record.id}`;
    await expectListing(wanted, of(users.subs[0]!, users.other, users.otherSub));
  });

  it('url lists the requests of exactly that url', async () => {
    const url = entries[5]!.url;
    const walk = await expectListing(`url=${encodeURIComponent(url)}`, (entry) => entry.url === url);
    expect(walk.entries.length).toBeGreaterThan(0);
    expect(walk.pages[0]!.body.filter).toEqual({ url });
  });

  it('request finds the one entry with that id, whatever the case of the id', async () => {
    const target = entries[17]!;
    const response = await invoke('listMediaLog', { token: users.root.token, query: `request=${target.id.toUpperCase()}` });
    expect(response.body.log).toEqual([target]);
    expect(response.body.pagination).toMatchObject({ count: 1, total: 1, next: null });
    expect(response.body.filter).toEqual({ request: target.id });
  });

  it('echoes the send range as filter.created, normalized to UTC', async () => {
    const response = await invoke('listMediaLog', { token: users.root.token, query: 'send[from]=2026-01-01T01:00:00%2B01:00&send[to]=2026-01-02T00:00:00Z' });
    expect(response.body.filter).toEqual({ created: { from: '2026-01-01T00:00:00.000Z', to: '2026-01-02T00:00:00.000Z' } });
  });
});

describe('GET /media/log filters combined', () => {
  it('status, status-ffscan, user-id and a send range together', async () => {
    const owners = [users.owner, users.subs[1]!, users.other];
    const query = `status=success,warning&status-ffscan=success&user-id=${owners.map((user) => user.record.id).join(',')}&send[from]=2025-12-15T08:00:00Z&send[to]=2026-01-10T14:20:00Z`;
    await expectListing(query, (entry) =>
      ['success', 'warning'].includes(entry.status) && entry['status-ffscan'] === 'success' && of(...owners)(entry) &&
      entry.send >= '2025-12-15T08:00:00.000Z' && entry.send <= '2026-01-10T14:20:00.000Z');
  });

  it('rare statuses on two fields with a range, oldest first', async () => {
    await expectListing('status=error&status-mediainfo=error,warning&send[to]=2026-01-20T00:00:00Z&sort[order]=asc', (entry) =>
      entry.status === 'error' && ['error', 'warning'].includes(entry['status-mediainfo']) && entry.send <= '2026-01-20T00:00:00.000Z', 'asc');
  });

  it('url with a status and a user', async () => {
    const target = entries.find((entry) => entries.filter((other) => other.url === entry.url).length >= 3) as MediaLogEntry;
    const query = `url=${encodeURIComponent(target.url)}&status=${target.status}&user-id=${target['user-id']}`;
    await expectListing(query, (entry) => entry.url === target.url && entry.status === target.status && entry['user-id'] === target['user-id']);
  });

  it('request with a filter the entry does not satisfy lists nothing', async () => {
    const target = entries.find((entry) => entry.status !== 'error') as MediaLogEntry;
    const response = await invoke('listMediaLog', { token: users.root.token, query: `request=${target.id}&status=error` });
    expect(response.body.log).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });

  it('a range with no entries lists nothing, with total 0', async () => {
    const response = await invoke('listMediaLog', { token: users.root.token, query: 'send[from]=2030-01-01T00:00:00Z' });
    expect(response.body).toMatchObject({ log: [], pagination: { count: 0, total: 0, next: null } });
  });
});

describe('GET /media/log scope', () => {
  it('shows root every entry', async () => {
    await expectListing('', () => true, 'desc', users.root.token);
  });

  it('shows admin every entry but root users\', page by page, with exact totals', async () => {
    const notRoot = (entry: MediaLogEntry) => entry['user-id'] !== users.root.record.id;
    expect(entries.some((entry) => !notRoot(entry))).toBe(true);
    await expectListing('', notRoot, 'desc', users.admin.token);
    await expectListing('sort[order]=asc&status=error,warning', (entry) => notRoot(entry) && ['error', 'warning'].includes(entry.status), 'asc', users.admin.token);
    await expectListing('send[from]=2026-01-10T14:10:00Z&send[to]=2026-01-10T14:40:00Z', (entry) => notRoot(entry) && entry.send >= '2026-01-10T14:10:00.000Z' && entry.send <= '2026-01-10T14:40:00.000Z', 'desc', users.admin.token);
    const walk = await walkCursor(users.admin.token, '', 7);
    expect(ids(walk.entries)).toEqual(ids(sorted(entries.filter(notRoot))));
  });

  it('gives admin nothing of a root user, asked by user-id, url or request', async () => {
    const rootEntry = entries.find((entry) => entry['user-id'] === users.root.record.id) as MediaLogEntry;
    for (const query of [`user-id=${users.root.record.id}`, `request=${rootEntry.id}`, `url=${encodeURIComponent(rootEntry.url)}`]) {
      const response = await invoke('listMediaLog', { token: users.admin.token, query });
      expect(response.status).toBe(200);
      expect(response.body.log.filter((entry: MediaLogEntry) => entry['user-id'] === users.root.record.id)).toEqual([]);
    }
  });

  it('shows a user its own and its sub users\' entries', async () => {
    await expectListing('', of(users.owner, ...users.subs), 'desc', users.owner.token);
  });

  it('shows a sub user only its own entries', async () => {
    await expectListing('', of(users.subs[0]!), 'desc', users.subs[0]!.token);
  });

  it('ignores user-id values outside the caller\'s scope, without an error', async () => {
    const query = `user-id=${users.subs[1]!.record.id},${users.other.record.id},${users.otherSub.record.id}`;
    await expectListing(query, of(users.subs[1]!), 'desc', users.owner.token);
    const outside = await invoke('listMediaLog', { token: users.subs[0]!.token, query: `user-id=${users.owner.record.id}` });
    expect(outside.status).toBe(200);
    expect(outside.body).toMatchObject({ log: [], pagination: { total: 0 }, filter: { 'user-id': [users.owner.record.id] } });
  });

  it('does not show an entry outside the caller\'s scope by its id', async () => {
    const foreign = entries.find(of(users.other)) as MediaLogEntry;
    const response = await invoke('listMediaLog', { token: users.owner.token, query: `request=${foreign.id}` });
    expect(response.body.log).toEqual([]);
    expect(response.body.pagination.total).toBe(0);
  });

  it('refuses a request without a token', async () => {
    const response = await invoke('listMediaLog', {});
    expect(response.status).toBe(401);
  });
});

describe('GET /media/log pagination', () => {
  it('walks every page by number: each entry once, constant total', async () => {
    const walk = await walkPages(users.root.token, '', 7);
    expect(ids(walk.entries)).toEqual(ids(sorted(entries)));
    expect(new Set(walk.totals)).toEqual(new Set([entries.length]));
    expect(walk.pages.at(-2)!.body.pagination.page).toBe(walk.pages.length - 1);
  });

  it('walks every page by cursor, for a merged multi-user listing oldest first', async () => {
    const query = `sort[order]=asc&user-id=${users.owner.record.id},${users.subs[0]!.record.id},${users.otherSub.record.id}`;
    const expected = sorted(entries.filter(of(users.owner, users.subs[0]!, users.otherSub)), 'asc');
    const walk = await walkCursor(users.root.token, query, 9);
    expect(ids(walk.entries)).toEqual(ids(expected));
    expect(new Set(walk.totals)).toEqual(new Set([expected.length]));
    expect(walk.pages.map((page) => page.body.pagination.page)).toEqual(walk.pages.map((_, index) => index + 1));
  });

  it('walks a status-filtered range by cursor', async () => {
    const query = 'status=success&send[from]=2026-01-10T14:05:00Z&send[to]=2026-01-31T00:00:00Z';
    const expected = sorted(entries.filter((entry) => entry.status === 'success' && entry.send >= '2026-01-10T14:05:00.000Z' && entry.send <= '2026-01-31T00:00:00.000Z'));
    const walk = await walkCursor(users.root.token, query, 4);
    expect(ids(walk.entries)).toEqual(ids(expected));
    expect(new Set(walk.totals)).toEqual(new Set([expected.length]));
  });

  it.each([
    ['', 'desc', 3, 13],
    ['sort[order]=asc', 'asc', 7, 11],
    ['send[from]=2026-01-10T14:00:00Z&send[to]=2026-01-10T15:00:00Z', 'desc', 3, 5],
  ] as const)('jumps straight to a deep page (%s, %s, limit %i, page %i)', async (query, order, limit, page) => {
    const response = await invoke('listMediaLog', { token: users.root.token, query: `${query}&pagination[limit]=${limit}&pagination[page]=${page}` });
    const from = (page - 1) * limit;
    const all = sorted(entries.filter((entry) => !query.startsWith('send') || (entry.send >= '2026-01-10T14:00:00.000Z' && entry.send <= '2026-01-10T15:00:00.000Z')), order);
    expect(ids(response.body.log)).toEqual(ids(all.slice(from, from + limit)));
  });

  it('answers a page past the end with no entries and the total', async () => {
    const response = await invoke('listMediaLog', { token: users.owner.token, query: 'pagination[page]=500' });
    expect(response.body).toMatchObject({ log: [], pagination: { count: 0, page: 500, total: entries.filter(of(users.owner, ...users.subs)).length, next: null } });
  });

  it('refuses a cursor of another query or a tampered one', async () => {
    const first = await invoke('listMediaLog', { token: users.root.token, query: 'status=success' });
    const cursor = encodeURIComponent(first.body.pagination.next);
    const otherQuery = await invoke('listMediaLog', { token: users.root.token, query: `status=error&pagination[cursor]=${cursor}` });
    const tampered = await invoke('listMediaLog', { token: users.root.token, query: `status=success&pagination[cursor]=x${cursor}` });
    for (const response of [otherQuery, tampered]) {
      expect(response.status).toBe(400);
      expect(response.body.errors.map((error: { name: string }) => error.name)).toEqual(['pagination[cursor]']);
    }
  });
});
