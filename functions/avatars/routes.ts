import { documentRoutes } from '../shared/http/route-definition';
import { uploadCurrentAvatarRoute, uploadUserAvatarRoute } from './avatar-routes';
import { deleteCurrentAvatarRoute } from './delete-route';
import { createCurrentAvatarUploadRoute, createUserAvatarUploadRoute } from './upload-form-routes';
import { AVATAR_ROUTE_DOCS } from './route-docs';

/** The avatar routes with their documentation, in the order the API description lists them. */
export const avatarRoutes = documentRoutes(
  [uploadCurrentAvatarRoute, uploadUserAvatarRoute, createCurrentAvatarUploadRoute, createUserAvatarUploadRoute, deleteCurrentAvatarRoute],
  AVATAR_ROUTE_DOCS,
);
