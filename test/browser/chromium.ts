import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/**
 * Debian's Chromium for the browser tests, driven by playwright-core (which never downloads a
 * browser of its own): headless, no sandbox (containers), no background networking.
 */

/** Where Debian installs Chromium (`apt-get install -y chromium`; CI does). */
export const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Pages address loopback by IP: every other host resolves to nothing, so nothing leaves the machine.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.*',
];

/** Whether this machine has Chromium. */
export const hasChromium = existsSync(CHROMIUM);

/** Starts Chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
}

const LOOPBACK_URL = /^(?:https?|ws):\/\/127(?:\.\d{1,3}){3}[:/]|^data:|^about:/;

/**
 * A browser context whose pages reach nothing but loopback: Chromium resolves no host name at all
 * (`--host-resolver-rules`, see {@link launchChromium}), and every request a page makes off
 * 127.0.0.0/8 is recorded in the returned list, which a test asserts empty. Requests are watched,
 * not intercepted: intercepting them (`context.route`) would have Playwright answer CORS preflights
 * itself, and the browser's own CORS checks are what the tests are about.
 */
export async function loopbackContext(browser: Browser): Promise<{ context: BrowserContext; offLoopback: string[] }> {
  const context = await browser.newContext();
  const offLoopback: string[] = [];
  context.on('request', (request) => {
    if (!LOOPBACK_URL.test(request.url())) offLoopback.push(request.url());
  });
  return { context, offLoopback };
}
