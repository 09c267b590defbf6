import type * as z from '../validation/zod';
import type { RouteGrants } from '../deployment/data-grants';

/**
 * What a route of the API is, in two parts that its feature keeps apart:
 * - its operation (e.g. functions/users/profile-routes.ts): method, path, handler, authorization,
 *   grants and what it accepts. The route's function is built from it, so it holds only what runs.
 * - its documentation (e.g. functions/users/route-docs.ts): summary, description and what it
 *   answers, read by the OpenAPI document only: no function carries those texts and answer schemas.
 * Each feature pairs the two (e.g. functions/users/routes.ts) and functions/routes.ts composes them
 * into the one route table that the stack, the local gateway, `invoke` and the OpenAPI document read.
 */

/** Every route lives under this prefix, as the interface specifies. */
export const API_PREFIX = '/frontend/api/v1';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Tags of the OpenAPI document, one per feature. */
export type RouteTag = 'Users' | 'Avatars' | 'Media log' | 'API description';

/**
 * Request headers a route may read besides Authorization: a conditional update's version, and the
 * key that makes an unsafe request safe to retry (DESIGN.md 5b).
 */
export type RequestHeader = 'If-Match' | 'Idempotency-Key';

/** The request headers a contract lists; `Idempotency-Key` follows from the route's own flag ({@link RouteOperation.idempotencyKey}). */
export type ContractHeader = Exclude<RequestHeader, 'Idempotency-Key'>;

/**
 * What a route accepts. The HTTP layer validates with these schemas and the OpenAPI document is
 * generated from them, so the two cannot disagree.
 */
export interface RouteContract {
  readonly pathParameters?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** Largest JSON body accepted, in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** Request headers the route reads besides Authorization and `Idempotency-Key`. */
  readonly requestHeaders?: readonly ContractHeader[];
}

/** What the API description says of a route besides what it accepts: its purpose and its answers. */
export interface RouteDocs {
  readonly summary: string;
  /** Longer text for the API description (semantics, encodings, access rules). */
  readonly description: string;
  readonly tag: RouteTag;
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

/** What the function of a route runs: one route of the API, backed by one Lambda function. */
export interface RouteOperation {
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
  /**
   * The route takes an `Idempotency-Key` (DESIGN.md 5b): its function answers a retry with the
   * first answer, is granted the idempotency table's request records and ships Powertools
   * Idempotency, and the OpenAPI document lists the header. Only bearer routes: keys are the caller's.
   */
  readonly idempotencyKey?: boolean;
  readonly contract: RouteContract;
}

/** Every request header `route` reads besides Authorization: its contract's, and `Idempotency-Key` when it takes one. */
export function requestHeadersOf(route: RouteOperation): RequestHeader[] {
  return [...(route.contract.requestHeaders ?? []), ...(route.idempotencyKey === true ? (['Idempotency-Key'] as const) : [])];
}

/** A route of the route table: its operation and its documentation. */
export interface RouteDefinition extends RouteOperation {
  readonly docs: RouteDocs;
}

/** `operations` paired with their documentation by route name, each keeping its literal type. */
export function documentRoutes<const O extends readonly RouteOperation[], const D extends { readonly [N in O[number]['name']]: RouteDocs }>(
  operations: O,
  docs: D,
): { readonly [I in keyof O]: O[I] & { readonly docs: O[I] extends RouteOperation ? D[O[I]['name'] & keyof D] : never } } {
  return operations.map((operation) => ({ ...operation, docs: docs[operation.name as keyof D] })) as never;
}
