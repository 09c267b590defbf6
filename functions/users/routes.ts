import { listUsersRoute } from './list-route';
import { getCurrentUserRoute, getUserRoute, updateCurrentUserRoute, updateUserRoute } from './profile-routes';

/** The user routes, in the order the API description lists them: the list of users, and profiles read and updated. */
export const userRoutes = [listUsersRoute, getCurrentUserRoute, updateCurrentUserRoute, getUserRoute, updateUserRoute] as const;
