import type { RouteDefinition } from '../shared/http/route-definition';
import { OpenApiDocumentSchema } from './document-schema';

/** GET /openapi.json: the API description, public. */
export const getOpenApiRoute = {
  name: 'getOpenApi',
  method: 'GET',
  path: '/openapi.json',
  handler: 'functions/openapi/get-openapi.ts',
  auth: 'none',
  grants: {},
  contract: {
    summary: 'The OpenAPI 3.1 document of this API',
    description:
      'Extension of the interface, public: this document, generated from the same zod schemas that validate requests. ' +
      'The interactive documentation of the local gateway (`npm start`) is at /frontend/api/v1/docs.',
    tag: 'API description',
    success: { status: 200, description: 'The OpenAPI document.', schema: OpenApiDocumentSchema },
    errors: [400],
  },
} as const satisfies RouteDefinition;
