import { openApiDocument } from '../functions/openapi/document';
import { getOpenApiRoute } from '../functions/openapi/openapi-route';
import { OPENAPI_DOCUMENT_FILE } from './function-bundling';

/**
 * The files a function's bundle ships beside `index.mjs`, by name and content: the OpenAPI
 * document for getOpenApi (built here, from the route table, as `npm run openapi` writes it), none
 * for the others. The stack copies them into the function's asset after bundling
 * (lib/constructs/service-function.ts); the benches and the bundle tests write them beside the
 * bundles they build (bench/function-bundles.ts).
 */
export function bundledFiles(handlerModule: string): Readonly<Record<string, string>> {
  return handlerModule === getOpenApiRoute.handler ? { [OPENAPI_DOCUMENT_FILE]: JSON.stringify(openApiDocument()) } : {};
}
