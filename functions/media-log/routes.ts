import { documentRoutes } from '../shared/http/route-definition';
import { listMediaLogRoute } from './listing/list-route';
import { MEDIA_LOG_ROUTE_DOCS } from './route-docs';

/** The media log routes with their documentation. */
export const mediaLogRoutes = documentRoutes([listMediaLogRoute], MEDIA_LOG_ROUTE_DOCS);
