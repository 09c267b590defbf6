/**
 * The media log listings the bench measures (bench/media-log.ts): every listing and filter
 * combination it knows, the targets each carries, and the seeded choices that give both log sizes
 * the same sequence of queries.
 */

/** Which targets a listing carries: a common one ≤ 2 read units per item returned, a url's ≤ 40 a page, every one ≤ the request's budget. */
export type PatternKind = 'common' | 'common url' | 'url' | 'other';

/** The year the log is seeded over. */
export const SPAN_START = new Date('2025-01-01T00:00:00Z');
/** Its length. */
export const SPAN_MS = 365 * 86_400_000;
const DAY_MS = 86_400_000;

/** A seeded source of choices, so both sizes get the same sequence of queries. */
export function chooser(seed: number, users: number, urls: readonly string[], ids: readonly string[]) {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const user = () => 1 + Math.floor(random() * users);
  const instant = (offsetMs: number) => new Date(SPAN_START.getTime() + offsetMs).toISOString();
  const window = (days: number) => {
    const from = Math.floor(random() * (SPAN_MS - days * DAY_MS));
    return `send[from]=${instant(from)}&send[to]=${instant(from + days * DAY_MS)}`;
  };
  return {
    user,
    users: (count: number) => [...new Set(Array.from({ length: count * 2 }, user))].slice(0, count).join(','),
    window,
    url: () => encodeURIComponent(urls[Math.floor(random() * urls.length)] as string),
    entry: () => ids[Math.floor(random() * ids.length)] as string,
  };
}

/** The choices of one pattern's requests. */
export type Chooser = ReturnType<typeof chooser>;

/** A url requested more often than the count budget reads: its page must stay within 40 read units all the same. */
export const POPULAR_URL = 'https://media.example.com/videos/trailer-everyone-watches.mp4';
/** Its requests: more than its count reads within its 30 read units. */
export const POPULAR_REQUESTS = 2500;

/** Sub users of the parent whose own listing the bench measures (bench/media-log.ts registers them before seeding). */
export const FAMILY_SUBS = 1000;

/** A listing measured: its query, whose page it asks (the first, or the second by its cursor), as which caller, and the targets it carries. */
export interface Pattern {
  readonly name: string;
  readonly kind: PatternKind;
  readonly query: (choose: Chooser) => string;
  readonly caller?: 'admin' | 'family';
  readonly cursor?: true;
}

/** Every listing and filter combination the bench knows: the common ones first. */
export const PATTERNS: readonly Pattern[] = [
  { name: 'newest first', kind: 'common', query: () => '' },
  { name: 'oldest first', kind: 'common', query: () => 'sort[order]=asc' },
  { name: 'one user', kind: 'common', query: (choose) => `user-id=${choose.user()}` },
  // A parent's own listing: its family (FAMILY_SUBS sub users, who send nearly every entry) read as one scope, not member by member.
  { name: `family of ${FAMILY_SUBS.toLocaleString('en-US')} subs`, kind: 'common', caller: 'family', query: () => '' },
  { name: 'five users', kind: 'common', query: (choose) => `user-id=${choose.users(5)}` },
  { name: 'time range (7 days)', kind: 'common', query: (choose) => choose.window(7) },
  { name: 'url', kind: 'common url', query: (choose) => `url=${choose.url()}` },
  { name: `url (${POPULAR_REQUESTS.toLocaleString('en-US')} requests)`, kind: 'url', query: () => `url=${encodeURIComponent(POPULAR_URL)}` },
  // A url with a status filter reads each candidate's entry to know its statuses (the url's index holds none): the request's budget bounds it.
  { name: `url (${POPULAR_REQUESTS.toLocaleString('en-US')}) + status success`, kind: 'other', query: () => `url=${encodeURIComponent(POPULAR_URL)}&status=success` },
  { name: `url (${POPULAR_REQUESTS.toLocaleString('en-US')}) + status error`, kind: 'other', query: () => `url=${encodeURIComponent(POPULAR_URL)}&status=error` },
  { name: 'one entry by id', kind: 'other', query: (choose) => `request=${choose.entry()}` },
  { name: 'status error (an index)', kind: 'other', query: () => 'status=error' },
  { name: 'status pending (in flight, an index)', kind: 'other', query: () => 'status=pending' },
  { name: 'status success (no index)', kind: 'other', query: () => 'status=success' },
  { name: 'status error + ffscan warning,error', kind: 'other', query: () => 'status=error&status-ffscan=warning,error' },
  { name: 'one user + status error', kind: 'other', query: (choose) => `user-id=${choose.user()}&status=error` },
  { name: 'one user + 7 days', kind: 'other', query: (choose) => `user-id=${choose.user()}&${choose.window(7)}` },
  { name: 'five users + status success + 30 days', kind: 'other', query: (choose) => `user-id=${choose.users(5)}&status=success&${choose.window(30)}` },
  { name: 'status error + 30 days', kind: 'other', query: (choose) => `status=error&${choose.window(30)}` },
  { name: 'admin, newest first (root users hidden)', kind: 'other', caller: 'admin', query: () => '' },
  { name: 'admin, 7 days', kind: 'other', caller: 'admin', query: (choose) => choose.window(7) },
  { name: 'page 50', kind: 'other', query: () => 'pagination[page]=50' },
  { name: 'page 100', kind: 'other', query: () => 'pagination[page]=100' },
  { name: 'page 2 by cursor (newest first)', kind: 'other', cursor: true, query: () => '' },
  { name: 'page 2 by cursor (status error)', kind: 'other', cursor: true, query: () => 'status=error' },
];
