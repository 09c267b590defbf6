import type { RouteOperation } from '../shared/http/route-definition';

/** GET /openapi.json: the API description, public (its documentation: route-docs.ts). */
export const getOpenApiRoute = {
  name: 'getOpenApi',
  method: 'GET',
  path: '/openapi.json',
  handler: 'functions/openapi/get-openapi.ts',
  auth: 'none',
  grants: {},
  contract: {},
} as const satisfies RouteOperation;
