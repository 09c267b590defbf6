import type * as z from '../validation/zod';
import type { RouteGrants } from '../deployment/data-grants';

/**
 * What a route of the API is: method, path, handler, authorization and its contract. Each feature
 * writes its own routes (e.g. functions/users/routes.ts) and functions/routes.ts composes them into
 * the one route table that the stack, the local gateway, `invoke` and the OpenAPI document read.
 */

/** Every route lives under this prefix, as the interface specifies. */
export const API_PREFIX = '/frontend/api/v1';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Tags of the OpenAPI document, one per feature. */
export type RouteTag = 'Users' | 'Avatars' | 'Media log' | 'API description';

/**
 * The interface of a route: what it accepts and answers. The HTTP layer validates with these
 * schemas and the OpenAPI document is generated from them, so the two cannot disagree.
 */
export interface RouteContract {
  readonly summary: string;
  /** Longer text for the API description (semantics, encodings, access rules). */
  readonly description: string;
  readonly tag: RouteTag;
  readonly pathParameters?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** Largest JSON body accepted, in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** Request headers the route reads besides Authorization. */
  readonly requestHeaders?: readonly 'If-Match'[];
  readonly success: {
    readonly status: 200 | 201 | 204;
    readonly description: string;
    readonly schema?: z.ZodMiniType;
    /** Response headers besides the security headers, e.g. ETag. */
    readonly headers?: readonly 'ETag'[];
  };
  /** Error statuses the route itself can answer (the gateway's own answers are added for all). */
  readonly errors: readonly number[];
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
  /** The route pages with signed `pagination[cursor]` cursors: its function gets the signing key. */
  readonly paginated?: boolean;
  readonly contract: RouteContract;
}
