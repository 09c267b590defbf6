/**
 * The one route table: method, path, handler module and authorization of every function. The CDK
 * stack builds its API Gateway resources and functions from it, the local gateway routes requests
 * with it, and `invoke --list` prints it. Nothing else lists routes.
 */

/** Every route lives under this prefix, as the interface specifies. */
export const API_PREFIX = '/frontend/api/v1';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Data a function touches, and how: the stack grants exactly this and nothing more. */
export interface RouteGrants {
  readonly users?: 'read' | 'write';
  readonly mediaLog?: 'read' | 'write';
  readonly avatars?: 'read' | 'write';
}

/** One route of the API, backed by one Lambda function. */
export interface RouteDefinition {
  /** Function name: the CDK construct id and the NAME of `invoke NAME`. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Path under {@link API_PREFIX}, with API Gateway `{param}` placeholders. */
  readonly path: string;
  /** Module (from the project root) whose named export `handler` serves the route. */
  readonly handler: string;
  /** `bearer`: the REQUEST authorizer guards it; `none`: public (the API description). */
  readonly auth: 'bearer' | 'none';
  readonly grants: RouteGrants;
  /** The function decodes images and ships sharp; it gets more memory and time. */
  readonly image?: boolean;
}

/** The authorizer, listed beside the routes for `invoke` and the stack. */
export const authorizerFunction = {
  name: 'authorizer',
  handler: 'functions/auth/authorizer.ts',
  grants: { users: 'read' },
} as const;

/** Every route of the API. */
export const routes: readonly RouteDefinition[] = [
  {
    name: 'getCurrentUser',
    method: 'GET',
    path: '/user/current',
    handler: 'functions/users/get-current-user.ts',
    auth: 'bearer',
    grants: { users: 'read' },
  },
  {
    name: 'updateCurrentUser',
    method: 'PUT',
    path: '/user/current',
    handler: 'functions/users/update-current-user.ts',
    auth: 'bearer',
    grants: { users: 'write' },
  },
];
