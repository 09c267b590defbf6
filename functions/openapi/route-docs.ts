import type { RouteDocs } from '../shared/http/route-definition';
import { OpenApiDocumentSchema } from './document-schema';

/** The documentation of GET /openapi.json, by route name. */
export const OPENAPI_ROUTE_DOCS = {
  getOpenApi: {
    summary: 'The OpenAPI 3.1 document of this API',
    description:
      'Extension of the interface, public: this document, generated from the same zod schemas that validate requests. ' +
      'The interactive documentation of the local gateway (`npm start`) is at /frontend/api/v1/docs.',
    tag: 'API description',
    success: { status: 200, description: 'The OpenAPI document.', schema: OpenApiDocumentSchema },
    errors: [400],
  },
} as const satisfies Readonly<Record<string, RouteDocs>>;
