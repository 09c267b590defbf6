import { createTestUser, type TestUser } from '../harness/users';
import { tokenFor } from '../harness/invoke';
import { PAGE_ORIGIN, useLiveStack } from '../harness/live';
import { LIVE_LIMITS } from '../../functions/live/model/live-limits';

/**
 * Opening the live media log (DESIGN.md 7c): a one-time ticket from POST /media/log/live, taken by
 * `$connect` from a page of an allowed origin; every other ticket, origin or caller is refused
 * before the connection exists, with the status API Gateway would answer.
 */

const live = useLiveStack();
let user: TestUser;

beforeAll(async () => {
  user = await createTestUser({ role: 'user' });
});

describe('POST /media/log/live', () => {
  it('answers 201 with a WebSocket URL carrying a ticket, and when the ticket expires', async () => {
    const before = Date.now();
    const { status, body } = await live.ticket(user.token);
    const after = Date.now();

    expect(status).toBe(201);
    expect(body.url).toMatch(new RegExp(`^${live.server.url}\\?ticket=[A-Za-z0-9_-]{43}$`));
    // Whole seconds: from the second it was issued in.
    expect(Date.parse(body.expires)).toBeGreaterThan(before + (LIVE_LIMITS.ticketSeconds - 1) * 1000);
    expect(Date.parse(body.expires)).toBeLessThanOrEqual(after + LIVE_LIMITS.ticketSeconds * 1000);
  });

  it('refuses a suspended caller with 403 and a bad token with 401', async () => {
    const suspended = await createTestUser({ role: 'user', status: 'suspended' });
    expect((await live.ticket(suspended.token)).status).toBe(403);
    expect((await live.ticket('not.a.token')).status).toBe(401);
  });

  it('refuses a body: the route takes none', async () => {
    const response = await fetch(`${live.gateway.baseUrl}/frontend/api/v1/media/log/live`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: 1 }),
    });
    expect(response.status).toBe(400);
  });
});

describe('$connect', () => {
  it('opens with a fresh ticket from an allowed origin, and from a client that sends no origin', async () => {
    const fromPage = await live.connect((await live.ticket(user.token)).body.url, PAGE_ORIGIN);
    const fromServer = await live.connect((await live.ticket(user.token)).body.url);
    expect('client' in fromPage && 'client' in fromServer).toBe(true);
  });

  it('refuses a ticket used once already with 401', async () => {
    const { url } = (await live.ticket(user.token)).body;
    expect('client' in (await live.connect(url, PAGE_ORIGIN))).toBe(true);
    expect(await live.connect(url, PAGE_ORIGIN)).toEqual({ refused: 401 });
  });

  it('lets exactly one of two connects with the same ticket in', async () => {
    const { url } = (await live.ticket(user.token)).body;
    const both = await Promise.all([live.connect(url, PAGE_ORIGIN), live.connect(url, PAGE_ORIGIN)]);
    expect(both.filter((outcome) => 'client' in outcome)).toHaveLength(1);
    expect(both.filter((outcome) => 'refused' in outcome)).toEqual([{ refused: 401 }]);
  });

  it('refuses an unknown ticket, a malformed one and none with 401', async () => {
    const base = live.server.url;
    for (const url of [`${base}?ticket=${'A'.repeat(43)}`, `${base}?ticket=short`, base]) {
      expect(await live.connect(url, PAGE_ORIGIN)).toEqual({ refused: 401 });
    }
  });

  it('refuses a page of a foreign origin with 403, and leaves its ticket for the page it was for', async () => {
    const { url } = (await live.ticket(user.token)).body;
    expect(await live.connect(url, 'https://evil.example')).toEqual({ refused: 403 });
    expect(await live.connect(url, 'null')).toEqual({ refused: 403 });
    expect('client' in (await live.connect(url, PAGE_ORIGIN))).toBe(true);
  });

  it('refuses a ticket whose token expired since, with 401', async () => {
    const shortLived = await tokenFor(user.record.subject, 2);
    const { url } = (await live.ticket(shortLived)).body;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await live.connect(url, PAGE_ORIGIN)).toEqual({ refused: 401 });
  });

  it(`holds at most ${LIVE_LIMITS.connectionsPerUser} connections per user (429 beyond), and frees a place when one closes`, async () => {
    const busy = await createTestUser({ role: 'user' });
    const clients = [];
    for (let count = 0; count < LIVE_LIMITS.connectionsPerUser; count += 1) clients.push(await live.open(busy.token));
    expect(await live.connect((await live.ticket(busy.token)).body.url, PAGE_ORIGIN)).toEqual({ refused: 429 });

    clients[0]?.close();
    await clients[0]?.closed;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect('client' in (await live.connect((await live.ticket(busy.token)).body.url, PAGE_ORIGIN))).toBe(true);
  }, 60_000);
});
