import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import type { MediaLogEntry } from '../../functions/media-log/model/schemas';
import { CursorCodec } from '../../functions/shared/listing/cursor';
import { CURSOR_SYNTAX } from '../../functions/shared/listing/cursor-syntax';
import { LISTING_READ_UNITS } from '../../functions/media-log/listing/read-costs';
import { BYTES_PER_READ_UNIT } from '../../functions/shared/listing/read-budget';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { createTestUser, type TestUser } from '../harness/users';
import { walkCursor } from './log-fixture';

/**
 * A cursor reveals nothing outside the caller's scope (DESIGN 4). A user's url listing reads the
 * url's one partition, which holds everyone's requests of it: when another user requested the url
 * more often than a page may read, the page spends its whole read budget on entries the scope
 * drops and resumes at the last of them. The cursor it returns must not carry that entry's key
 * (its send and id) in any readable form.
 */

/** More url index items (about 140 bytes each) than a whole request's read units can read. */
const FOREIGN_REQUESTS = Math.ceil((LISTING_READ_UNITS * BYTES_PER_READ_UNIT) / 128);

const URL = 'https://media.example.com/videos/everyone-watches.mp4';
let owner: TestUser;
let foreign: MediaLogEntry[];
let own: MediaLogEntry;

beforeAll(async () => {
  owner = await createTestUser({ role: 'user' });
  const stranger = await createTestUser({ role: 'user' });
  // The stranger's requests are all newer than the owner's one: newest first, a page reads them first.
  foreign = sampleMediaLogEntries(FOREIGN_REQUESTS, { userIds: [stranger.record.id], start: new Date('2026-04-02T00:00:00Z'), spanMs: 86_400_000, seed: 41 }).map((entry) => ({ ...entry, url: URL }));
  own = { ...(sampleMediaLogEntries(1, { userIds: [owner.record.id], start: new Date('2026-04-01T00:00:00Z'), spanMs: 3_600_000, seed: 42 })[0] as MediaLogEntry), url: URL };
  // The url listing reads the url's partition and counts it there: it needs no folded counters.
  await writeMediaLogEntries([...foreign, own]);
}, 300_000);

/** Every readable form of a cursor: its text, and each dot-separated part decoded as base64url. */
function readings(cursor: string): string[] {
  return [cursor, ...cursor.split('.').flatMap((part) => [Buffer.from(part, 'base64url').toString('utf8'), Buffer.from(part, 'base64url').toString('latin1')])];
}

describe('a cursor after a page spent on entries outside the scope', () => {
  it('resumes the walk to the caller\'s own entry and never carries a key of the entries it passed', async () => {
    const walk = await walkCursor(owner.token, `url=${encodeURIComponent(URL)}`, 10);

    expect(walk.entries).toEqual([own]);
    const cursors = walk.pages.map((page) => page.body.pagination.next as string | null).filter((next): next is string => next !== null);
    // The first page read its whole budget without a match: it can only go on by a cursor.
    expect(walk.pages[0]?.body.log).toEqual([]);
    expect(cursors.length).toBeGreaterThanOrEqual(1);
    const secrets = foreign.flatMap((entry) => [entry.id, entry.id.replace(/-/g, ''), entry.send, entry.send.slice(0, 19)]);
    for (const cursor of cursors) {
      for (const reading of readings(cursor)) {
        expect(secrets.filter((secret) => reading.includes(secret))).toEqual([]);
        expect(reading).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
      }
    }
    // Two pages of some ten thousand index items each, and the url's count beside each.
  }, 120_000);
});

describe('the cursor codec', () => {
  const secret = 'a-test-secret-of-at-least-thirty-two-chars';
  const state = { page: 3, edge: '2026-04-02T00:04:18.136Z#f2f06139-51c1-499e-8473-e322f09bec39' };

  it('opens what it sealed, and seals the same state differently each time', () => {
    const codec = new CursorCodec('media-log', secret);
    const [first, second] = [codec.encode(state, 'query'), codec.encode(state, 'query')] as [string, string];
    expect(first).not.toBe(second);
    expect(first).toMatch(CURSOR_SYNTAX);
    expect(codec.decode(first, 'query')).toEqual(state);
    expect(codec.decode(second, 'query')).toEqual(state);
  });

  it.each([
    ['one character of the ciphertext changed', (cursor: string) => `${cursor.slice(0, -1)}${cursor.endsWith('A') ? 'B' : 'A'}`],
    ['the nonce of another cursor', (cursor: string) => `${new CursorCodec('media-log', secret).encode(state, 'query').split('.')[0]}.${cursor.split('.')[1]}`],
    ['a cursor of another listing', () => new CursorCodec('users', secret).encode(state, 'query')],
    ['a cursor of another deployment', () => new CursorCodec('media-log', `${secret}-other`).encode(state, 'query')],
    ['the tag cut off', (cursor: string) => cursor.slice(0, -22)],
  ])('refuses %s with a 400 naming the cursor', (_, forge) => {
    const codec = new CursorCodec('media-log', secret);
    const forged = forge(codec.encode(state, 'query'));
    expect(() => codec.decode(forged, 'query')).toThrow(expect.objectContaining({ status: 400, errors: [{ name: 'pagination[cursor]', reason: expect.any(String) }] }));
  });

  it('refuses its own cursor for another query', () => {
    const codec = new CursorCodec('media-log', secret);
    expect(() => codec.decode(codec.encode(state, 'query'), 'other query')).toThrow(expect.objectContaining({ status: 400, errors: [{ name: 'pagination[cursor]', reason: expect.stringMatching(/different query/) }] }));
  });
});
