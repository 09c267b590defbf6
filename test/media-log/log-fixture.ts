import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { invoke, type InvokeResponse } from '../harness/invoke';
import { storeEntries } from '../harness/media-log';
import { createTestUser, type TestUser } from '../harness/users';

/** The users of a listing test: both all-seeing roles, a user with two subs, another user with one sub. */
export interface LogUsers {
  readonly root: TestUser;
  readonly admin: TestUser;
  readonly owner: TestUser;
  readonly subs: readonly TestUser[];
  readonly other: TestUser;
  readonly otherSub: TestUser;
}

/** Creates the users of {@link LogUsers}. */
export async function createLogUsers(): Promise<LogUsers> {
  const root = await createTestUser({ role: 'root' });
  const admin = await createTestUser({ role: 'admin' });
  const owner = await createTestUser({ role: 'user' });
  const subs = [await createTestUser({ role: 'sub', parent: owner.record.id }), await createTestUser({ role: 'sub', parent: owner.record.id })];
  const other = await createTestUser({ role: 'user' });
  const otherSub = await createTestUser({ role: 'sub', parent: other.record.id });
  return { root, admin, owner, subs, other, otherSub };
}

/**
 * A log spanning a year boundary and several month boundaries, plus a burst of entries inside one
 * hour (some at the very same millisecond), so that totals and deep pages exercise every counter
 * level and the partial-bucket counting.
 */
export async function seedLog(users: LogUsers, count = 360): Promise<MediaLogEntry[]> {
  const owners = [users.owner, ...users.subs, users.other, users.otherSub, users.root].map((user) => user.record.id);
  const spread = sampleMediaLogEntries(count, { userIds: owners, start: new Date('2025-11-20T00:00:00Z'), spanMs: 80 * 86_400_000, seed: 7 });
  const burst = sampleMediaLogEntries(40, { userIds: owners, start: new Date('2026-01-10T14:00:00Z'), spanMs: 3_600_000, seed: 8 }).map(
    (entry, index) => (index % 8 === 0 ? { ...entry, send: '2026-01-10T14:30:00.000Z' } : entry),
  );
  const entries = [...spread, ...burst];
  await storeEntries(entries);
  return entries;
}

/** Entries in listing order: by send, then id. */
export function sorted(entries: readonly MediaLogEntry[], order: 'asc' | 'desc' = 'desc'): MediaLogEntry[] {
  const key = (entry: MediaLogEntry) => `${entry.send}#${entry.id}`;
  return [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (order === 'asc' ? 1 : -1));
}

/** What a full walk of a listing found. */
export interface Walk {
  readonly entries: MediaLogEntry[];
  readonly totals: number[];
  readonly pages: InvokeResponse[];
}

function withQuery(query: string, extra: string): string {
  return query === '' ? extra : `${query}&${extra}`;
}

/** Every page of a listing by page number, until a short page. */
export async function walkPages(token: string, query: string, limit: number): Promise<Walk> {
  const walk: Walk = { entries: [], totals: [], pages: [] };
  for (let page = 1; page < 1000; page += 1) {
    const response = await invoke('listMediaLog', { token, query: withQuery(query, `pagination[limit]=${limit}&pagination[page]=${page}`) });
    if (response.status !== 200) throw new Error(`Page ${page} answered ${response.status}: ${JSON.stringify(response.body)}`);
    walk.pages.push(response);
    walk.totals.push(response.body.pagination.total);
    walk.entries.push(...response.body.log);
    if (response.body.log.length < limit) break;
  }
  return walk;
}

/** Every page of a listing by following `pagination.next`. */
export async function walkCursor(token: string, query: string, limit: number): Promise<Walk> {
  const walk: Walk = { entries: [], totals: [], pages: [] };
  let cursor: string | null = null;
  do {
    const paging: string = `pagination[limit]=${limit}${cursor === null ? '' : `&pagination[cursor]=${encodeURIComponent(cursor)}`}`;
    const response = await invoke('listMediaLog', { token, query: withQuery(query, paging) });
    if (response.status !== 200) throw new Error(`A cursor page answered ${response.status}: ${JSON.stringify(response.body)}`);
    walk.pages.push(response);
    walk.totals.push(response.body.pagination.total);
    walk.entries.push(...response.body.log);
    cursor = response.body.pagination.next;
  } while (cursor !== null && walk.pages.length < 1000);
  return walk;
}
