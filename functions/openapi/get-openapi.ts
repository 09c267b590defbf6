import { httpRoute } from '../shared/http/http-route';
import { getOpenApiRoute } from './openapi-route';
import { openApiDocument } from './document';

/** GET /openapi.json: the OpenAPI 3.1 document of the API, public. */
export const handler = httpRoute(getOpenApiRoute, async () => ({ statusCode: 200, body: openApiDocument() }));
