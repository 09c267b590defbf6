import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/** Roles of the interface, from most to least powerful. */
export const ROLES = ['root', 'admin', 'user', 'sub'] as const;
/** A user's role. */
export type Role = (typeof ROLES)[number];

/** Who is calling, as the authorizer established it. Handlers do every object-level check with it. */
export interface Caller {
  readonly userId: number;
  readonly role: Role;
  readonly parentId: number | null;
}

/** What a route handler returns; the HTTP layer serializes `body` as JSON. */
export interface HttpResult {
  readonly statusCode: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The Lambda signature of every route. */
export type RouteHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
