import { readFileSync } from 'node:fs';
import { httpRoute } from '../shared/http/http-route';
import { lazy } from '../shared/lazy';
import { getOpenApiRoute } from './openapi-route';

/**
 * The document, read at cold start in Lambda from the file beside the bundle, written when the
 * function is bundled (lib/bundled-files.ts). esbuild puts the file's name in place of
 * `process.env.OPENAPI_DOCUMENT_FILE` (lib/function-bundling.ts), so the other branch is dead code
 * it leaves out: the bundle carries neither zod's JSON Schema code nor any route's schemas, and no
 * cold start or first request builds the document. Run from source (the local gateway, `invoke`,
 * tests) the name is unset and the document is built from the route table, the same one.
 */
const openApiDocument = /* @__PURE__ */ lazy(
  async (): Promise<unknown> =>
    process.env.OPENAPI_DOCUMENT_FILE !== undefined
      ? JSON.parse(readFileSync(new URL(process.env.OPENAPI_DOCUMENT_FILE, import.meta.url), 'utf8'))
      : (await import('./document')).openApiDocument(),
);

/** GET /openapi.json: the OpenAPI 3.1 document of the API, public. */
export const handler = httpRoute(getOpenApiRoute, async () => ({ statusCode: 200, body: await openApiDocument() }));
