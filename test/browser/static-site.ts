import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { startServer, type LocalServer } from '../avatars/fetch/local-servers';

/**
 * The test frontend, served as a static site: a page that loads the bundled scenario script. Each
 * server is its own origin, the API's another.
 */

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>Frontend</title><script src="/app.js"></script></head>' +
  '<body><input type="file" id="avatar-file" accept="image/png,image/jpeg,image/webp,image/gif"></body></html>';

/** A page script (by default the scenario's) and the frontend module it uses, bundled for the browser by esbuild. */
export async function bundlePage(script = './page-scenario.ts'): Promise<string> {
  const entry = fileURLToPath(new URL(script, import.meta.url));
  const result = await build({ entryPoints: [entry], bundle: true, format: 'iife', platform: 'browser', target: 'chrome120', write: false, logLevel: 'silent' });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no bundle for the test page.');
  return output.text;
}

/** Serves the page at `/` and its script at `/app.js` on `host` (a loopback address), any free port. */
export function serveSite(script: string, host: string): Promise<LocalServer> {
  return startServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://site').pathname;
    if (path === '/') response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
    else if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    else response.writeHead(404).end();
  }, host);
}
