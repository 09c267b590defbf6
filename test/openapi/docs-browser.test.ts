import type { Browser } from 'playwright-core';
import { DOCS_PATH } from '../../local/gateway/docs-page';
import { testSigningKey } from '../harness/invoke';
import { createTestUser } from '../harness/users';
import { AuthorizerRunner, loadAuthorizer } from '../../local/gateway/authorizer-runner';
import { startGateway, type LocalGateway } from '../../local/gateway/http-server';
import { CHROMIUM, hasChromium, launchChromium } from '../browser/chromium';
// A developer machine without Chromium skips this one test, saying so; CI installs Chromium
// (.ci/run), and there a missing browser fails the test instead of hiding it.
if (!hasChromium && !process.env.CI) console.warn(`Skipping the docs page browser test: ${CHROMIUM} is missing (apt-get install -y chromium).`);
const describeWithChromium = hasChromium || process.env.CI ? describe : describe.skip;

const LOOPBACK_URL = /^(?:https?|ws):\/\/127\.0\.0\.1[:/]|^data:|^about:/;

describeWithChromium(
  hasChromium ? 'the docs page in a browser' : `the docs page in a browser (SKIPPED: ${CHROMIUM} is missing; apt-get install -y chromium)`,
  () => {
    let server: LocalGateway;
    let browser: Browser;

    beforeAll(async () => {
      // The authorizer loads its configuration (this file's signing key) when its module loads.
      await testSigningKey();
      server = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 0), 0);
      browser = await launchChromium();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    it('lets a developer paste a token, try GET /user/current and see its 200 answer', async () => {
      const user = await createTestUser({ role: 'user', 'first-name': 'Docs', 'last-name': 'Reader' });
      const context = await browser.newContext();
      const offLoopback: string[] = [];
      // Nothing leaves the machine: any request off loopback is refused and remembered.
      await context.route('**/*', async (route) => {
        if (LOOPBACK_URL.test(route.request().url())) await route.continue();
        else {
          offLoopback.push(route.request().url());
          await route.abort();
        }
      });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));

      await page.goto(`${server.baseUrl}${DOCS_PATH}`);
      await page.locator('button.authorize').first().click();
      await page.locator('.modal-ux input').first().fill(user.token);
      await page.locator('.modal-ux .auth-btn-wrapper button.authorize').click();
      await page.locator('.modal-ux button.btn-done').click();

      const operation = page.locator('#operations-Users-getCurrentUser');
      await operation.locator('.opblock-summary').first().click();
      await operation.locator('button.try-out__btn').click();
      await operation.locator('button.execute').click();

      const live = operation.locator('.live-responses-table');
      await live.locator('.response-col_status', { hasText: '200' }).waitFor({ timeout: 15_000 });
      await expect(live.locator('tbody .response-col_description').textContent()).resolves.toContain(user.record.email);
      if (process.env.DOCS_SCREENSHOT) await page.screenshot({ path: process.env.DOCS_SCREENSHOT, fullPage: true });
      await expect(operation.locator('.curl-command').textContent()).resolves.toContain('Authorization: Bearer');
      expect(pageErrors).toEqual([]);
      expect(offLoopback).toEqual([]);
      await context.close();
    }, 60_000);
  },
);
