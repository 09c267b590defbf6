import { documentRoutes } from '../shared/http/route-definition';
import { getOpenApiRoute } from './openapi-route';
import { OPENAPI_ROUTE_DOCS } from './route-docs';

/** The route of the API description, with its documentation. */
export const openApiRoutes = documentRoutes([getOpenApiRoute], OPENAPI_ROUTE_DOCS);
