import type { IncomingMessage } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { storeEntries } from '../harness/media-log';
import { sampleMediaLogEntries } from '../../local/seed/sample-entries';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import type { LocalServer } from '../avatars/fetch/local-servers';
import { startImageSource, type ImageSource } from '../avatars/routes/image-source';
import { quadrantImage } from '../fixtures/images/generate';
import { testSigningKey } from '../harness/invoke';
import { createTestUser, type TestUser } from '../harness/users';
import { CHROMIUM, hasChromium, launchChromium, loopbackContext } from './chromium';
import type { FileAvatarReport, ScenarioInput, ScenarioReport } from './page-scenario';
import { colourOf, decode, pixelAt } from '../avatars/image/pixel-assertions';
import { bundlePage, serveSite } from './static-site';

/**
 * A frontend on another origin, in a real browser: the local gateway on one port, the frontend's
 * static site on another, Chromium opening the site's page, which calls the API with the typed
 * client. The tests' origin list is the local default (http://127.0.0.1:* and http://localhost:*),
 * so the site on 127.0.0.1 is allowed, and the same site served from 127.0.0.2 is not.
 */

// A developer machine without Chromium skips this file, saying so; CI installs Chromium (.ci/run),
// and there a missing browser fails the test instead of hiding it.
if (!hasChromium && !process.env.CI) console.warn(`Skipping the cross-origin browser test: ${CHROMIUM} is missing (apt-get install -y chromium).`);
const describeWithChromium = hasChromium || process.env.CI ? describe : describe.skip;

describeWithChromium('a frontend on another origin, in Chromium', () => {
  let gateway: LocalGateway;
  let allowedSite: LocalServer;
  let refusedSite: LocalServer;
  let images: ImageSource;
  let browser: Browser;
  let owner: TestUser;
  let sub: TestUser;
  const seen: string[] = [];
  /** The Idempotency-Key of each unsafe request that reached the gateway, by request. */
  const keys: string[] = [];

  beforeAll(async () => {
    await testSigningKey();
    gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0);
    gateway.server.on('request', (request: IncomingMessage) => {
      seen.push(`${request.method} ${request.url} ${request.headers['access-control-request-method'] ?? ''}`.trim());
      if (request.method === 'POST' || request.method === 'PUT') keys.push(`${request.method} ${request.url} ${request.headers['idempotency-key'] ?? 'no key'}`);
    });
    const script = await bundlePage();
    allowedSite = await serveSite(script, '127.0.0.1');
    refusedSite = await serveSite(script, '127.0.0.2');
    images = await startImageSource();
    owner = await createTestUser({ role: 'user', 'first-name': 'Ada' });
    sub = await createTestUser({ role: 'sub', parent: owner.record.id });
    await storeEntries(
      sampleMediaLogEntries(30, { userIds: [owner.record.id, sub.record.id], start: new Date('2026-01-01T00:00:00Z'), spanMs: 86_400_000, seed: 3 }),
    );
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([gateway?.close(), allowedSite?.close(), refusedSite?.close(), images?.close()]);
  });

  async function openSite(site: LocalServer): Promise<{ page: Page; offLoopback: string[]; close: () => Promise<void> }> {
    const { context, offLoopback } = await loopbackContext(browser);
    const page = await context.newPage();
    await page.goto(`${site.origin}/`);
    return { page, offLoopback, close: () => context.close() };
  }

  it('reads, updates with If-Match, lists with array filters, uploads an avatar and reads 401 and 412 problems', async () => {
    const input: ScenarioInput = {
      apiBaseUrl: gateway.baseUrl,
      token: owner.token,
      imageUrl: images.serve('/photo.png', await quadrantImage(64, 48, 'png'), 'image/png'),
      ownerId: owner.record.id,
      subId: sub.record.id,
    };
    const { page, offLoopback, close } = await openSite(allowedSite);
    const report = await page.evaluate((args) => (globalThis as unknown as { runScenario: (input: ScenarioInput) => Promise<ScenarioReport> }).runScenario(args), input);
    await close();

    expect(report.read).toEqual({ status: 200, etag: '"1"', email: owner.record.email });
    expect(report.updated).toEqual({ status: 200, etag: '"2"', lastName: 'Lovelace' });
    expect(report.stale.status).toBe(412);
    expect(report.stale.problem).toMatchObject({ status: 412, code: 'precondition_failed' });
    expect(report.users.status).toBe(200);
    expect(report.users.roles?.sort()).toEqual(['sub', 'user']);
    expect(report.users.sort).toEqual({ field: 'email', order: 'desc' });
    expect(report.avatar).toEqual({ status: 201, enabled: true });
    expect(report.log.status).toBe(200);
    expect(report.log.statuses.every((status) => status === 'success' || status === 'error')).toBe(true);
    expect(report.log.userIds.length).toBeGreaterThan(0);
    expect(report.log.userIds.every((id) => id === owner.record.id || id === sub.record.id)).toBe(true);
    expect(report.unauthorized).toMatchObject({ status: 401, problem: { status: 401, code: 'unauthorized' }, wwwAuthenticate: 'Bearer error="invalid_token"' });
    // The browser asked before sending the PUT with If-Match and a JSON body: a real preflight.
    expect(seen).toContain('OPTIONS /frontend/api/v1/user/current PUT');
    expect(offLoopback).toEqual([]);
  }, 60_000);

  it('sets an avatar from a file picked in an <input type=file>: an upload form, the file posted straight to storage, the crop', async () => {
    const { page, offLoopback, close } = await openSite(allowedSite);
    await page.setInputFiles('#avatar-file', { name: 'photo.png', mimeType: 'image/png', buffer: await quadrantImage(64, 48, 'png') });
    const before = seen.length;
    const keysBefore = keys.length;
    const report = await page.evaluate(
      (args) => (globalThis as unknown as { avatarFromFile: (input: Pick<ScenarioInput, 'apiBaseUrl' | 'token'>) => Promise<FileAvatarReport> }).avatarFromFile(args),
      { apiBaseUrl: gateway.baseUrl, token: owner.token },
    );
    await close();

    // The page read every answer: the API's through its CORS headers, storage's through the bucket's CORS rule.
    expect(report).toMatchObject({ form: 201, stored: 204, avatar: 201, shown: { width: 32, height: 32 } });
    const pixels = await decode(Buffer.from(await (await fetch(String(report.url))).arrayBuffer()));
    expect(colourOf(pixelAt(pixels, 4, 4))).toBe('red');
    // Both API calls were preflighted (they carry Authorization and a JSON body); the file never reached the gateway.
    expect(seen.slice(before)).toEqual([
      'OPTIONS /frontend/api/v1/user/current/avatar/uploads POST',
      'POST /frontend/api/v1/user/current/avatar/uploads',
      'OPTIONS /frontend/api/v1/user/current/avatar POST',
      'POST /frontend/api/v1/user/current/avatar',
    ]);
    // The typed client gave each unsafe call a key of its own, which the preflight let through.
    const uuidKey = /^"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"$/;
    const sent = keys.slice(keysBefore).map((line) => line.split(' '));
    expect(sent.map(([method, url]) => `${method} ${url}`)).toEqual(['POST /frontend/api/v1/user/current/avatar/uploads', 'POST /frontend/api/v1/user/current/avatar']);
    expect(sent.map(([, , key]) => key).filter((key) => uuidKey.test(key ?? ''))).toHaveLength(2);
    expect(new Set(sent.map(([, , key]) => key)).size).toBe(2);
    expect(offLoopback).toEqual([]);
  }, 60_000);

  it('is blocked by the browser when served from an origin the API does not allow', async () => {
    const { page, offLoopback, close } = await openSite(refusedSite);
    const before = seen.length;
    const outcome = await page.evaluate(
      (args) => (globalThis as unknown as { tryRead: (input: Pick<ScenarioInput, 'apiBaseUrl' | 'token'>) => Promise<string> }).tryRead(args),
      { apiBaseUrl: gateway.baseUrl, token: owner.token },
    );
    await close();
    expect(outcome).toMatch(/^blocked: TypeError: Failed to fetch/);
    // Refused by the preflight: the GET itself (it carries Authorization) was never sent.
    expect(seen.slice(before)).toEqual(['OPTIONS /frontend/api/v1/user/current GET']);
    expect(offLoopback).toEqual([]);
  }, 60_000);
});
