import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { routeNamed } from '../../functions/routes';
import { API_PREFIX } from '../../functions/shared/http/route-definition';
import type { LocalResponse } from './local-response';

/**
 * The interactive documentation of the local gateway: Swagger UI (the `swagger-ui-dist` package,
 * served from node_modules, never from a CDN) rendering GET /openapi.json, with an Authorize
 * button for a bearer token and "Try it out" on every operation. Calls go to the gateway that
 * served the page. Above it, a link to the frontend developer's guide (docs/frontend.md of this
 * checkout, served as text beside the page), which links back here.
 */

/** Where the documentation page is served. */
export const DOCS_PATH = `${API_PREFIX}/docs`;

const SPEC_PATH = `${API_PREFIX}${routeNamed('getOpenApi').path}`;

/** Where the page serves the frontend developer's guide. */
export const GUIDE_PATH = `${DOCS_PATH}/frontend.md`;

const GUIDE_FILE = new URL('../../docs/frontend.md', import.meta.url);

/** The renderer's files the page loads, by the name they are served under, with their media types. */
const RENDERER_FILES: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Frontend API</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <p style="font-family: sans-serif; margin: 1em 20px">New here? Start with the <a href="${GUIDE_PATH}">frontend developer's guide</a> (docs/frontend.md): tokens, lists and cursors, errors, CORS, the typed client, safe retries, uploads and the live media log.</p>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/docs-init.js"></script>
</body>
</html>
`;

// The document's first server is this gateway, whatever port it listens on, so "Try it out" calls it.
const INIT_SCRIPT = `'use strict';
fetch(${JSON.stringify(SPEC_PATH)})
  .then((response) => response.json())
  .then((spec) => {
    spec.servers = [{ url: window.location.origin, description: 'This gateway' }].concat(spec.servers || []);
    window.ui = SwaggerUIBundle({
      spec: spec,
      dom_id: '#swagger-ui',
      deepLinking: true,
      layout: 'BaseLayout',
      presets: [SwaggerUIBundle.presets.apis],
      // No badge from the public validator service: the page talks to this gateway only.
      validatorUrl: null,
    });
  })
  .catch((error) => {
    document.getElementById('swagger-ui').textContent = 'The OpenAPI document could not be loaded: ' + error;
  });
`;

// Swagger UI sets inline styles and shows data: images; everything else comes from this origin.
const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

let rendererDir: string | undefined;
const cache = new Map<string, Buffer>();

function rendererFile(name: string): Buffer {
  rendererDir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  let content = cache.get(name);
  if (!content) {
    content = readFileSync(join(rendererDir, name));
    cache.set(name, content);
  }
  return content;
}

function answer(contentType: string, body: string | Buffer): LocalResponse {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { statusCode: 200, headers: { 'content-type': contentType, ...PAGE_HEADERS }, multiValueHeaders: {}, body: bytes };
}

/**
 * Where someone opening the gateway's address or the API's base URL in a browser is sent: there is
 * nothing to read there but the docs. A local convenience only; the deployed API has no such route.
 */
const SENT_TO_DOCS: ReadonlySet<string> = new Set(['/', API_PREFIX, `${API_PREFIX}/`]);

function redirectToDocs(): LocalResponse {
  return { statusCode: 302, headers: { location: DOCS_PATH, 'cache-control': 'no-cache', 'content-type': 'text/plain; charset=utf-8' }, multiValueHeaders: {}, body: Buffer.from(`See ${DOCS_PATH}\n`) };
}

/**
 * The documentation page and its files for a GET under {@link DOCS_PATH}, and a redirect to it
 * (302) from `/` and the API's base URL; null for any other request, which the gateway then
 * serves (or answers 404) as usual.
 */
export function serveDocs(method: string, path: string): LocalResponse | null {
  if (method !== 'GET') return null;
  if (SENT_TO_DOCS.has(path)) return redirectToDocs();
  if (path === DOCS_PATH || path === `${DOCS_PATH}/`) return answer('text/html; charset=utf-8', PAGE);
  if (!path.startsWith(`${DOCS_PATH}/`)) return null;
  const name = path.slice(DOCS_PATH.length + 1);
  if (name === 'docs-init.js') return answer('text/javascript; charset=utf-8', INIT_SCRIPT);
  // Read on each request: the guide of the checkout as it is now, edited or not.
  if (path === GUIDE_PATH) return answer('text/plain; charset=utf-8', readFileSync(GUIDE_FILE));
  // Only the listed files: a name is never joined to a path unchecked.
  const contentType = Object.hasOwn(RENDERER_FILES, name) ? RENDERER_FILES[name] : undefined;
  return contentType === undefined ? null : answer(contentType, rendererFile(name));
}
