import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { DeleteConnectionCommand, ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { clientOptions } from '../../functions/shared/aws/clients';
import { liveRegistry } from '../../functions/live/live-composition';
import type { LocalServer } from '../avatars/fetch/local-servers';
import { createTestUser, type TestUser } from '../harness/users';
import { useLiveStack } from '../harness/live';
import { requestMessage, statusMessage } from '../media-log/feed/feed-fixture';
import { CHROMIUM, hasChromium, launchChromium, loopbackContext } from './chromium';
import type { LiveSightings } from './live-page';
import { bundlePage, serveSite } from './static-site';

/**
 * The live media log in a real browser (DESIGN.md 7c): a page on another origin watches its user's
 * entries with the typed client, through Chromium's own fetch and WebSocket; a change sent through
 * the feed reaches it; when its connection is closed it connects again with a new ticket and fetches
 * its page again; a page of an origin the API does not allow cannot open a connection, even with a
 * ticket in hand. The delay of a change is the live bench's figure; here it is printed.
 */

if (!hasChromium && !process.env.CI) console.warn(`Skipping the live browser test: ${CHROMIUM} is missing (apt-get install -y chromium).`);
const describeWithChromium = hasChromium || process.env.CI ? describe : describe.skip;

describeWithChromium('a frontend watching the live media log, in Chromium', () => {
  const live = useLiveStack({ pollMs: 250 });
  let browser: Browser;
  let allowedSite: LocalServer;
  let refusedSite: LocalServer;
  let owner: TestUser;

  beforeAll(async () => {
    const script = await bundlePage('./live-page.ts');
    allowedSite = await serveSite(script, '127.0.0.1');
    refusedSite = await serveSite(script, '127.0.0.2');
    owner = await createTestUser({ role: 'user' });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([allowedSite?.close(), refusedSite?.close()]);
  });

  async function openPage(site: LocalServer): Promise<{ page: Page; offLoopback: string[]; close: () => Promise<void> }> {
    const { context, offLoopback } = await loopbackContext(browser);
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    return { page, offLoopback, close: () => context.close() };
  }

  const sightings = (page: Page) => page.evaluate(() => (globalThis as unknown as { sightings: () => LiveSightings }).sightings());

  async function seen(page: Page, wanted: (sightings: LiveSightings) => boolean, ms = 15_000): Promise<LiveSightings> {
    const deadline = Date.now() + ms;
    for (;;) {
      const now = await sightings(page);
      if (wanted(now)) return now;
      if (Date.now() > deadline) throw new Error(`The page did not see it within ${ms} ms: ${JSON.stringify(now)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('sees a status change sent through the feed, and refetches its page once subscribed and after a reconnect', async () => {
    const { page, offLoopback, close } = await openPage(allowedSite);
    await page.evaluate((input) => (globalThis as unknown as { startWatch: (args: typeof input) => Promise<void> }).startWatch(input), {
      apiBaseUrl: live.gateway.baseUrl,
      token: owner.token,
      filter: { status: ['pending', 'processing', 'success'] },
    });
    await seen(page, (now) => now.pages.length >= 1);

    const id = randomUUID();
    await live.feed([requestMessage({ id, send: new Date().toISOString(), url: 'https://media.example/browser', 'user-id': owner.record.id })]);
    await seen(page, (now) => now.entries.some(({ entry }) => entry.id === id));
    const changedAt = Date.now();
    await live.feed([statusMessage(id, 'status', 'success', new Date().toISOString())]);
    const after = await seen(page, (now) => now.entries.some(({ entry }) => entry.id === id && entry.status === 'success'));
    const arrived = after.entries.find(({ entry }) => entry.id === id && entry.status === 'success');
    console.log(`A status change reached the page ${(arrived?.at ?? 0) - changedAt} ms after the feed took it.`);
    expect(arrived).toMatchObject({ matches: true, entry: { id, status: 'success', 'user-id': owner.record.id } });

    // The connection ends (as at two hours, or an expired token): the page connects again with a
    // new ticket, subscribes, and fetches its page, which holds the entry.
    const connections = Object.keys((await liveRegistry().userConnections(owner.record.id))?.connections ?? {});
    const sdk = new ApiGatewayManagementApiClient(clientOptions({ region: 'us-east-1', endpoint: live.server.connectionsEndpoint }));
    await sdk.send(new DeleteConnectionCommand({ ConnectionId: connections[0] as string }));
    sdk.destroy();
    const reconnected = await seen(page, (now) => now.statuses.filter(({ status }) => status === 'open').length >= 2 && now.pages.length >= 2);
    expect(reconnected.pages.at(-1)?.ids).toContain(id);
    expect(reconnected.errors).toEqual([]);

    await page.evaluate(() => (globalThis as unknown as { stopWatch: () => void }).stopWatch());
    await close();
    expect(offLoopback).toEqual([]);
  }, 90_000);

  it('cannot open a connection from a page of an origin the API does not allow, even with a ticket', async () => {
    const { url } = (await live.ticket(owner.token)).body;
    const { page, close } = await openPage(refusedSite);
    const outcome = await page.evaluate((ticketUrl) => (globalThis as unknown as { tryConnect: (url: string) => Promise<string> }).tryConnect(ticketUrl), url);
    await close();

    // The browser sees only a failed handshake (1006); the server refused it with 403.
    expect(outcome).toBe('closed 1006');
  }, 60_000);
});
