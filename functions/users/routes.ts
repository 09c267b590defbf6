import { documentRoutes } from '../shared/http/route-definition';
import { listUsersRoute } from './list-route';
import { getCurrentUserRoute, getUserRoute } from './profile-routes';
import { updateCurrentUserRoute, updateUserRoute } from './profile-update-routes';
import { USER_ROUTE_DOCS } from './route-docs';

/**
 * The user routes with their documentation, in the order the API description lists them: the
 * list of users, and profiles read and updated.
 */
export const userRoutes = documentRoutes([listUsersRoute, getCurrentUserRoute, updateCurrentUserRoute, getUserRoute, updateUserRoute], USER_ROUTE_DOCS);
